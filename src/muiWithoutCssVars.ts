/**
 * Stands in for MUI's CSS-variables theme code in the browser build: webpack/onDemand.js points the
 * imports of `createThemeWithVars` (by @mui/material/styles/createTheme) and `CssVarsProvider` (by
 * @mui/material/styles/ThemeProvider) here. Our theme (src/theme.ts) has neither `cssVariables` nor `colorSchemes`, so MUI takes the plain path and never calls these;
 * keeping them out saves ~25 KB of minified code on every page of the shell. A theme that turns CSS
 * variables on must drop that replacement (the error below says so). Jest uses the real modules.
 */
function cssVariablesAreOff(): never {
  throw new Error('MUI CSS variables are left out of this build: remove its rule in webpack/onDemand.js to use them');
}

export default cssVariablesAreOff;
export const CssVarsProvider = cssVariablesAreOff;
