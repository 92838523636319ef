/**
 * The application root: store and router, nothing else. The MUI theme (Chinese locale), the
 * loading overlay and the toasts live in the shell (src/layout/Layout.tsx): the login page shows
 * its errors in the form and never raises the overlay, so the login route loads neither MUI nor
 * Emotion.
 */
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import type { AppStore } from './store';
import type { createAppRouter } from './router';

export default function App({ store, router }: { store: AppStore; router: ReturnType<typeof createAppRouter> }) {
  return (
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  );
}
