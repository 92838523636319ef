/**
 * Shown when a route fails to render or its chunk cannot be loaded (e.g. after a new deployment).
 * Plain elements: it sits at the root, outside the shell's MUI theme.
 */
import { useRouteError } from 'react-router-dom';

export default function RouteError() {
  const error = useRouteError();
  if (process.env.NODE_ENV !== 'production') console.error(error);
  return (
    <div role="alert" style={{ textAlign: 'center', padding: '80px 16px', fontFamily: 'sans-serif' }}>
      <h1 style={{ fontSize: 24, fontWeight: 500 }}>页面加载失败</h1>
      <p style={{ color: 'rgba(0,0,0,.6)' }}>请刷新页面后重试</p>
      <button type="button" onClick={() => window.location.reload()} style={{ padding: '8px 20px', fontSize: 14 }}>
        刷新页面
      </button>
    </div>
  );
}
