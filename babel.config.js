// One Babel setup for three consumers: webpack (browsers), Jest and the server build (Node 20).
module.exports = (api) => {
  const web = api.caller((caller) => Boolean(caller && caller.name === 'babel-loader'));
  const isTest = api.env('test');
  api.cache.using(() => `${web}-${isTest}-${process.env.NODE_ENV}`);
  return {
    presets: [
      [
        '@babel/preset-env',
        web
          ? { targets: 'chrome >= 109, firefox >= 115, safari >= 15.4, edge >= 109', modules: false, bugfixes: true }
          : { targets: { node: '20' }, modules: 'commonjs' },
      ],
      ['@babel/preset-react', { runtime: 'automatic', development: !web && isTest }],
      ['@babel/preset-typescript', { allowDeclareFields: true, onlyRemoveTypeImports: false }],
    ],
  };
};
