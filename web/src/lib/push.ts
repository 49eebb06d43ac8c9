import { SERVICE_WORKER } from '../../../src/shared/pages.ts';
import { PUSH_KINDS, type PushKind } from '../../../src/shared/push.ts';
import { call, client } from './api.ts';

/**
 * Push notifications on this device (DECISIONS.md "Fifth wave" → "Push notifications"): the
 * browser's subscription, sent to the service with the kinds chosen. The service never shows
 * a subscription's endpoint, so this device remembers which of the user's subscriptions is its own.
 */
const ID_KEY = 'push-subscription-id';

export { PUSH_KINDS, type PushKind };

export const pushSupported = (): boolean =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

async function registration(): Promise<ServiceWorkerRegistration> {
  return (
    (await navigator.serviceWorker.getRegistration('/')) ?? navigator.serviceWorker.register(SERVICE_WORKER)
  );
}

const bytes = (base64url: string): Uint8Array<ArrayBuffer> => {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
};

/** The user's subscriptions other than this device's: the other browsers and phones. */
export async function otherDevices() {
  const id = Number(localStorage.getItem(ID_KEY));
  return (await call(client.GET('/api/push/subscriptions', {}))).filter((s) => s.id !== id);
}

export type OtherDevice = Awaited<ReturnType<typeof otherDevices>>[number];

/** Removes another device's subscription: it gets no more messages. */
export const removeDevice = (id: number) =>
  call(client.DELETE('/api/push/subscriptions', { params: { query: { id } } }));

/** This device's kinds when it is subscribed (its row among the user's), else null. */
export async function deviceKinds(): Promise<PushKind[] | null> {
  const reg = await navigator.serviceWorker.getRegistration('/');
  const sub = await reg?.pushManager.getSubscription();
  const id = Number(localStorage.getItem(ID_KEY));
  if (!sub || !id) return null;
  const mine = await call(client.GET('/api/push/subscriptions', {}));
  return mine.find((s) => s.id === id)?.kinds ?? null;
}

/** Subscribes this device (asking the browser's permission) or changes its kinds. */
export async function subscribeDevice(kinds: PushKind[]): Promise<void> {
  if ((await Notification.requestPermission()) !== 'granted') throw new Error('denied');
  const reg = await registration();
  let sub = await reg.pushManager.getSubscription();
  if (!sub) {
    const { public_key } = await call(client.GET('/api/push/key', {}));
    try {
      sub = await reg.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: bytes(public_key),
      });
    } catch (err) {
      // The browser's push service refused or could not be reached (its DOMException speaks English).
      throw err instanceof DOMException ? new Error('unavailable') : err;
    }
  }
  const json = sub.toJSON();
  const made = await call(
    client.POST('/api/push/subscriptions', {
      body: {
        endpoint: sub.endpoint,
        keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
        kinds,
      },
    }),
  );
  localStorage.setItem(ID_KEY, String(made.id));
}

/** Turns push off on this device: the service forgets it and the browser unsubscribes. */
export async function unsubscribeDevice(): Promise<void> {
  const id = localStorage.getItem(ID_KEY);
  if (id) {
    await call(client.DELETE('/api/push/subscriptions', { params: { query: { id: Number(id) } } })).catch(
      () => undefined,
    );
    localStorage.removeItem(ID_KEY);
  }
  const reg = await navigator.serviceWorker.getRegistration('/');
  await (await reg?.pushManager.getSubscription())?.unsubscribe();
}

export const sendTest = () => call(client.POST('/api/push/test', {}));
