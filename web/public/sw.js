// Courtside's service worker: pages come from the network as always; only when the network is
// gone does a navigation get the offline page instead of the browser's error. Nothing else is
// cached, so a deploy is never hidden behind a stale copy.
const CACHE = 'courtside-offline-v1';
const OFFLINE = ['/offline.html', '/icons/icon.svg', '/favicon.svg'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(OFFLINE)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate') return;
  event.respondWith(fetch(event.request).catch(() => caches.match('/offline.html')));
});
