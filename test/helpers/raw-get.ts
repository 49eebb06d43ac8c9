import { request } from 'node:http';

export interface RawGet {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent (fetch would decompress them and hide the encoding). */
  body: Buffer;
}

/** A GET whose answer is read as sent: its encoding and bytes untouched. */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawGet> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}
