// Babel for jest only; Gatsby builds the site with its own configuration.
module.exports = {
  presets: [['babel-preset-gatsby', { reactRuntime: 'classic' }], '@babel/preset-typescript'],
};
