/**
 * Gatsby's route lifecycle (gatsby-browser.tsx) reported to components: a route change that
 * takes longer than a second fires `delayed`, its end fires `updated`.
 */
type RouteEvent = 'delayed' | 'updated';
type Listener = (event: RouteEvent) => void;
const listeners = new Set<Listener>();

export const routeEvents = {
  emit(event: RouteEvent) {
    listeners.forEach((listener) => listener(event));
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
