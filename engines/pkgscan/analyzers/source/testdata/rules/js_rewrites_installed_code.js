// ruleid: js_rewrites_installed_code
fs.writeFileSync(__filename, patched);
// ok: js_rewrites_installed_code
fs.writeFileSync(outFile, data);
