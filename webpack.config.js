// Client build (webpack 5 + Babel, see babel.config.js).
// - Every page is its own chunk (route.lazy + the registry in src/routes.tsx); the login route loads
//   only the framework, the MUI core pieces it renders and the login page itself.
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

module.exports = (_env, argv) => {
  const mode = argv.mode || process.env.NODE_ENV || 'production';
  const production = mode === 'production';
  return {
    mode,
    entry: { main: path.resolve(__dirname, 'src/index.tsx') },
    output: {
      path: path.resolve(__dirname, 'dist/web'),
      publicPath: '/',
      filename: production ? 'js/[name].[contenthash:16].js' : 'js/[name].js',
      chunkFilename: production ? 'js/[name].[contenthash:16].js' : 'js/[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:16][ext]',
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
      // The webpack runtime changes with every chunk hash; kept apart so the framework stays cached.
      runtimeChunk: 'single',
      splitChunks: {
        chunks: 'all',
        cacheGroups: {
          // What every route needs, initial and long-lived: React, the router, Redux.
          framework: {
            test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|react-redux|redux|@reduxjs[\\/]toolkit|immer|reselect|redux-thunk|use-sync-external-store|cookie|set-cookie-parser)[\\/]/,
            name: 'framework',
            chunks: 'all',
            priority: 40,
            enforce: true,
          },
          // The heavy MUI X packages stay in async chunks shared only by the pages that use them.
          muiX: {
            test: /[\\/]node_modules[\\/]@mui[\\/]x-/,
            chunks: 'async',
            priority: 30,
            reuseExistingChunk: true,
          },
          defaultVendors: {
            test: /[\\/]node_modules[\\/]/,
            priority: -10,
            reuseExistingChunk: true,
          },
          default: { minChunks: 2, priority: -20, reuseExistingChunk: true },
        },
      },
    },
    performance: {
      hints: production ? 'warning' : false,
      // Gate on what the browser downloads for one route; the compressed files are what is sent.
      assetFilter: (file) => /\.js$/.test(file),
      maxEntrypointSize: 400 * 1024,
      maxAssetSize: 400 * 1024,
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
