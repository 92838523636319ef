// `npm start` runs this before its ~80 s build: a configuration the server would refuse (a bad
// DATABASE_URL, a weak ADMIN_PASSWORD, an out-of-range number…) stops here with the same message,
// in seconds, instead of after the build. Reads server/config.ts through Babel, as the tests do.
const path = require('node:path');

const root = path.join(__dirname, '..');
require('@babel/register')({
  extensions: ['.ts'],
  cache: true,
  only: [path.join(root, 'server'), path.join(root, 'domain')],
});
const { ConfigError, loadConfig } = require('../server/config');

try {
  loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`配置错误 (configuration error): ${err.message}`);
  process.exit(2);
}
