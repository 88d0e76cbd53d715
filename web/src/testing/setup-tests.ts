import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { mutate } from 'swr';
import { afterEach, vi } from 'vitest';
import { takeUnexpectedCalls } from './mock-api';

// Route chunks load lazily, and the machine is small and shared (a load average of 15 while
// others compile): give findBy/waitFor room. A timeout bounds waiting, it asserts nothing.
configure({ asyncUtilTimeout: 15_000 });

// jsdom lacks a few browser APIs that Radix and sonner reach for.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
window.scrollTo = (() => {}) as typeof window.scrollTo;

afterEach(async () => {
  cleanup();
  // Mutations use SWR's global cache (as the app does); empty it so tests do not leak reads.
  await mutate(() => true, undefined, { revalidate: false });
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  const unexpected = takeUnexpectedCalls();
  if (unexpected.length > 0) {
    throw new Error(
      `The test made calls it did not declare in mockApi/renderApp: ${[...new Set(unexpected)].join(', ')}`,
    );
  }
});
