/**
 * SVG to PNG with resvg (its prebuilt binary ships in its npm package), loaded at the first
 * image. The SVGs hold outlines only, so resvg loads no fonts; the rendering itself runs on
 * resvg's worker thread, not the event loop.
 */
type Resvg = typeof import('@resvg/resvg-js');

let resvg: Promise<Resvg> | undefined;

export async function svgToPng(svg: string, width?: number): Promise<Buffer> {
  resvg ??= import('@resvg/resvg-js');
  const { renderAsync } = await resvg;
  const image = await renderAsync(svg, {
    font: { loadSystemFonts: false },
    ...(width ? { fitTo: { mode: 'width' as const, value: width } } : {}),
  });
  return image.asPng();
}
