// Runs the bench's TypeScript (and the server's) under plain Node, as production runs compiled code.
// Not babel-node: it loads core-js polyfills (JSON.stringify among them) that slow every request.
require('@babel/register')({ extensions: ['.ts', '.tsx', '.js'], cache: true });
