// Preloaded into an export worker started from the TypeScript source (tests, `npm run dev`): the worker
// compiles what it loads with Babel, as its parent does (the compiled server starts worker.js instead).
require('@babel/register')({ extensions: ['.ts', '.tsx', '.js'], cache: true });
