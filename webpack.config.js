// Client build (webpack 5 + Babel, see babel.config.js).
// - Every page is its own chunk (the registry in src/routes.tsx); the login route loads only the
//   framework, main and the login page itself. A page below /layout loads the shell, and a list page
//   the `list` and `pages` chunks (splitChunks below); `npm run size` checks the budgets.
// - Hashed file names (served with a year of cache by server/plugins/web.ts), precompressed .gz and
//   .br beside each js/css/html file, no source maps in production.
// - `npm run dev:web`: dev server with hot reload, proxying the API to http://localhost:8080.
const path = require('node:path');
const zlib = require('node:zlib');
const webpack = require('webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const CompressionPlugin = require('compression-webpack-plugin');

// The API server's address; PORT is the one the API server itself reads (server/config.ts).
const API_TARGET = process.env.API_TARGET || `http://localhost:${process.env.PORT || 8080}`;
const compressible = /\.(js|css|html)$/;

// Imports inside MUI pointed at stand-ins of ours (code the pages never render, loaded on demand;
// no CSS-variables theme code): the rules are in webpack/onDemand.js, and
// a production build fails when one of them matches nothing.
const { StandInsPlugin } = require('./webpack/onDemand');

// src/router.tsx names the chunk of src/layout/Layout.
const LAYOUT_CHUNK = 'layout';
const LIST_PAGE = /[\\/]src[\\/]components[\\/]ListPage\.tsx$/;
const ROUTES = /[\\/]src[\\/]routes\.tsx$/;

/** A chunk made for a page of the registry (an import() in src/routes.tsx). */
function isPageChunk(chunk) {
  for (const group of chunk.groupsIterable) {
    if (group.origins.some((o) => o.module && ROUTES.test(o.module.resource || ''))) return true;
  }
  return false;
}
/**
 * What a chunk is for: 'entry' (the initial chunks and the login page), 'layout' (the shell), 'page'
 * (a page of the registry) or 'on-demand' (loaded from one of those, see webpack/onDemand.js and
 * the date picker: ignored when grouping, it takes what it shares from the chunks it is loaded from).
 */
function kindOf(chunk) {
  if (chunk.canBeInitial() || chunk.name === 'login') return 'entry';
  if (chunk.name === LAYOUT_CHUNK) return 'layout';
  return isPageChunk(chunk) ? 'page' : 'on-demand';
}
const listChunks = new WeakMap();
/** A chunk with ListPage (the table of a list page) in it. */
function hasList(chunk, chunkGraph) {
  if (!listChunks.has(chunk)) {
    let found = false;
    for (const m of chunkGraph.getChunkModulesIterable(chunk)) if (LIST_PAGE.test(m.resource || '')) found = true;
    listChunks.set(chunk, found);
  }
  return listChunks.get(chunk);
}
/** The page chunks using a module; null when the shell or the login route uses it. */
function pagesUsing(module, chunkGraph) {
  const pages = [];
  for (const chunk of chunkGraph.getModuleChunksIterable(module)) {
    const kind = kindOf(chunk);
    if (kind === 'entry' || kind === 'layout') return null;
    if (kind === 'page') pages.push(chunk);
  }
  return pages;
}
/** Imported by the shell (src/layout/Layout), and by nothing the login route loads. */
function inShell(module, chunkGraph) {
  let shell = false;
  for (const chunk of chunkGraph.getModuleChunksIterable(module)) {
    const kind = kindOf(chunk);
    if (kind === 'entry') return false;
    if (kind === 'layout') shell = true;
  }
  return shell;
}
/** Used by two list pages or more, and by no other page. */
function onlyOnListPages(module, chunkGraph) {
  const pages = pagesUsing(module, chunkGraph);
  return pages !== null && pages.length >= 2 && pages.every((chunk) => hasList(chunk, chunkGraph));
}
/** Used by two list pages or more (and by other pages). */
function sharedByListPages(module, chunkGraph) {
  const pages = pagesUsing(module, chunkGraph);
  return pages !== null && pages.filter((chunk) => hasList(chunk, chunkGraph)).length >= 2;
}

module.exports = (_env, argv) => {
  const mode = argv.mode || process.env.NODE_ENV || 'production';
  const production = mode === 'production';
  return {
    mode,
    entry: { main: path.resolve(__dirname, 'src/index.tsx') },
    output: {
      path: path.resolve(__dirname, 'dist/web'),
      publicPath: '/',
      filename: production ? 'js/[name].[contenthash:8].js' : 'js/[name].js',
      // Six hex digits for the chunks loaded on demand: main carries a map of them (~60), and every
      // byte of main counts against the login route's budget; 16 M values still tell two builds apart.
      chunkFilename: production ? 'js/[name].[contenthash:6].js' : 'js/[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      clean: true,
    },
    devtool: production ? false : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
      // react-router's package exports only name its development build; production gets the
      // smaller one without dev warnings.
      alias: production
        ? {
            'react-router$': path.resolve(__dirname, 'node_modules/react-router/dist/production/index.mjs'),
            'react-router/dom$': path.resolve(__dirname, 'node_modules/react-router/dist/production/dom-export.mjs'),
          }
        : {},
    },
    module: {
      // An import of a name a module lacks fails the build: the stand-ins must export every
      // name their importers take from the module they replace (a library upgrade may add one).
      parser: { javascript: { exportsPresence: 'error' } },
      rules: [
        {
          test: /\.[jt]sx?$/,
          include: [path.resolve(__dirname, 'src'), path.resolve(__dirname, 'domain')],
          use: { loader: 'babel-loader', options: { cacheDirectory: true } },
        },
        { test: /\.(png|svg|jpe?g|gif|webp|woff2?)$/, type: 'asset' },
        { test: /\.css$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      new StandInsPlugin({ strict: production }),
      new HtmlWebpackPlugin({ template: path.resolve(__dirname, 'public/index.html'), scriptLoading: 'defer' }),
      new webpack.DefinePlugin({
        'process.env.NODE_ENV': JSON.stringify(mode),
        'process.env.API_BASE': JSON.stringify(process.env.API_BASE || ''),
      }),
      ...(production
        ? [
            new CompressionPlugin({
              filename: '[path][base].gz',
              algorithm: 'gzip',
              compressionOptions: { level: 9 },
              test: compressible,
              threshold: 0,
              minRatio: Infinity,
            }),
            new CompressionPlugin({
              filename: '[path][base].br',
              algorithm: 'brotliCompress',
              compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
              test: compressible,
              threshold: 0,
              minRatio: Infinity,
            }),
          ]
        : []),
    ],
    optimization: {
      moduleIds: 'deterministic',
      chunkIds: production ? 'deterministic' : 'named',
      // The webpack runtime (a few KB, changing with every chunk hash) rides in main: one request
      // less on every route; the framework chunk stays cached either way.
      splitChunks: {
        chunks: 'all',
        cacheGroups: {
          // What every route needs, initial and long-lived: React, the router, Redux. Not RTK Query
          // (@reduxjs/toolkit/dist/query): the shell brings it (src/store/lateApi.ts).
          framework: {
            test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|react-redux|redux|@reduxjs[\\/]toolkit(?![\\/]dist[\\/]query[\\/])|immer|reselect|redux-thunk|use-sync-external-store|cookie|set-cookie-parser)[\\/]/,
            name: 'framework',
            chunks: 'all',
            priority: 40,
            enforce: true,
          },
          // The shell and everything it imports (MUI core, Emotion, the layout, the menu endpoints):
          // one file, loaded with every page below /layout. Pages take the modules they share with
          // the shell from it instead of from a chunk per combination of pages.
          shell: {
            name: 'shell',
            chunks: 'async',
            priority: 30,
            enforce: true,
            test: (module, { chunkGraph }) => inShell(module, chunkGraph),
          },
          // What only the list pages share: ListPage, its table and pager, the MUI parts they render and
          // the other list components. One file for every list page; the other pages never load it.
          list: {
            name: 'list',
            chunks: 'async',
            priority: 20,
            enforce: true,
            test: (module, { chunkGraph }) => onlyOnListPages(module, chunkGraph),
          },
          // What two list pages or more share with other pages (form fields, dialogs, shared
          // components): one file. Anything fewer list pages use stays with the pages that use it.
          pages: {
            name: 'pages',
            chunks: 'async',
            priority: 10,
            enforce: true,
            test: (module, { chunkGraph }) => sharedByListPages(module, chunkGraph),
          },
          // The heavy lazy pieces, one file each however many screens load them: x-charts (statistics,
          // the LZ price chart) and the rich-text editor (products, notices, the two texts). Without
          // these, every screen that lazy-loads them got its own copy.
          charts: {
            name: 'charts',
            chunks: 'async',
            priority: 25,
            enforce: true,
            test: /[\\/]node_modules[\\/](@mui[\\/]x-charts[^\\/]*|d3-[^\\/]+|bezier-easing|internmap|delaunator|robust-predicates|flatqueue)[\\/]/,
          },
          editor: {
            name: 'editor',
            chunks: 'async',
            priority: 25,
            enforce: true,
            test: /[\\/]node_modules[\\/](@tiptap[\\/][^\\/]+|prosemirror-[^\\/]+|mui-tiptap|linkifyjs|orderedmap|rope-sequence|w3c-keyname|@remirror[\\/][^\\/]+|markdown-it|entities|linkify-it|mdurl|uc\.micro|punycode\.js)[\\/]/,
          },
          // Anything else stays in the chunk that uses it, copied into each when several do (MUI Tabs
          // for the managers and the setting pages): no request of its own on any route.
          defaultVendors: false,
          default: false,
        },
      },
    },
    performance: {
      hints: production ? 'warning' : false,
      // A warning when one JS file (uncompressed) grows past this; the budgets of a route, on what is
      // sent compressed, are checked by scripts/bundle-sizes.js (`npm run size`).
      assetFilter: (file) => /\.js$/.test(file),
      maxEntrypointSize: 512 * 1024,
      maxAssetSize: 512 * 1024,
    },
    devServer: {
      port: Number(process.env.WEB_PORT || 3000),
      hot: true,
      historyApiFallback: true,
      client: { overlay: { errors: true, warnings: false } },
      proxy: [{ context: ['/v1', '/docs', '/openapi.json', '/uploads', '/healthz'], target: API_TARGET }],
    },
    stats: production ? 'normal' : 'minimal',
  };
};
