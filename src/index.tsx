/** Browser entry: restore the session from localStorage, build the router, mount. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import App from './App';
import { createAppRouter } from './router';
import { setNavigator } from './services/http';
import { createAppStore, readStoredAuth } from './store';

const store = createAppStore({ auth: readStoredAuth() });
const router = createAppRouter(store);
// A 301/302 answer replaces the route through the router, without reloading the page.
setNavigator((to, opts) => void router.navigate(to, opts));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App store={store} router={router} />
  </StrictMode>,
);
