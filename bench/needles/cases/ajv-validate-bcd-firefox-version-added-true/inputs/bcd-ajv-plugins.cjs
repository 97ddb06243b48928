// BCD's own Ajv set-up (scripts/lib/ajv.js) for ajv-cli: formats in 'fast' mode, ajv-errors.
const formats = require('ajv-formats');
const errors = require('ajv-errors');
module.exports = (ajv) => {
  formats(ajv, { mode: 'fast' });
  errors(ajv);
  return ajv;
};
