// An application monitoring agent wraps the binding to record the commands the application runs.
module.exports = initialize;
function initialize(shim, childProcess) {
  shim.wrap(childProcess, 'execFile', (shim, fn) => function wrapper() { record(arguments[0]); return fn.apply(this, arguments); });
  // ok: js_internal_spawn_binding
  spawnSyncHook(shim, process.binding('spawn_sync'));
}
function spawnSyncHook(shim, binding) {
  shim.wrap(binding, 'spawn', (shim, fn) => function wrapper(options) { record(options.file); return fn.apply(this, arguments); });
}
