// The house's layer rules as one ESLint rule (after VS Code's code-import-patterns): where each import may go.
import { builtinModules } from 'node:module';
import path from 'node:path';
import type { Rule } from 'eslint';

/** Services whose engines live in engines/<name>/ (core is shared code, not a service). */
const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const UI_PACKAGES = ['react', 'react-dom', 'zustand', 'cytoscape', '@xterm/xterm'];

interface Options {
  /** Repository root; defaults to ESLint's cwd. */
  readonly root?: string;
}

function packageName(specifier: string): string {
  if (specifier.startsWith('@')) return specifier.split('/').slice(0, 2).join('/');
  return specifier.split('/')[0] ?? specifier;
}

function isUnder(rel: string, dir: string): boolean {
  return rel === dir || rel.startsWith(`${dir}/`);
}

/** The first path segment after engines/, when the path is inside engines/. */
function engineOf(rel: string): string | undefined {
  if (!rel.startsWith('engines/')) return undefined;
  return rel.split('/')[1];
}

/** Returns why `spec` may not be imported from `fromRel`, or undefined when it may. */
export function layerViolation(fromRel: string, spec: string, typeOnly: boolean): string | undefined {
  const relative = spec.startsWith('.') || spec.startsWith('/');
  const targetRel = relative ? path.posix.normalize(path.posix.join(path.posix.dirname(fromRel), spec)) : undefined;
  const pkg = relative ? undefined : packageName(spec);
  const base = path.posix.basename(fromRel).replace(/\.[cm]?[jt]sx?$/, '');

  if (isUnder(fromRel, 'engines')) {
    if (pkg === 'electron') return 'engines never import electron';
    if (pkg !== undefined && UI_PACKAGES.includes(pkg)) return 'engines never import UI packages';
    if (pkg === 'express' && base !== 'http' && !isUnder(fromRel, 'engines/core/http') && !base.endsWith('.test') && base !== 'http.test')
      return 'only http.ts files and engines/core/http import express';
    if (targetRel !== undefined) {
      for (const layer of ['main', 'preload', 'renderer']) {
        if (isUnder(targetRel, layer)) return `engines never import ${layer}/`;
      }
      const from = engineOf(fromRel);
      const to = engineOf(targetRel);
      if (from === 'core' && to !== undefined && to !== 'core') return 'engines/core never imports a service';
      if (from !== undefined && from !== 'core' && to !== undefined && to !== 'core' && to !== from)
        return 'services never import each other; shared code belongs in engines/core';
    }
  }

  if (isUnder(fromRel, 'renderer')) {
    if (pkg !== undefined && NODE_BUILTINS.has(spec)) return 'the renderer imports no node: module';
    if (pkg === 'electron' || pkg === 'express' || pkg === 'better-sqlite3') return 'the renderer talks to the gateway over HTTP only';
    if (targetRel !== undefined) {
      if (isUnder(targetRel, 'main') || isUnder(targetRel, 'preload')) return 'the renderer never imports main/ or preload/';
      if (isUnder(targetRel, 'engines')) {
        if (!isUnder(targetRel, 'engines/core/contracts')) return 'the renderer imports only types from engines/core/contracts';
        if (!typeOnly) return 'the renderer imports engines/core/contracts with `import type` only';
      }
    }
  }

  if (isUnder(fromRel, 'preload')) {
    if (targetRel !== undefined && !isUnder(targetRel, 'preload') && !(isUnder(targetRel, 'engines/core/contracts') && typeOnly))
      return 'the preload imports nothing but electron and contract types';
  }

  if (pkg === 'electron' && !isUnder(fromRel, 'preload') && fromRel !== 'main/app.ts' && !/^main\/(.*\/)?electron[^/]*\.ts$/.test(fromRel))
    return 'only main/app.ts, main/**/electron*.ts and preload/ import electron (tests must load without it)';

  if (isUnder(fromRel, 'main') && targetRel !== undefined && isUnder(targetRel, 'renderer'))
    return 'main/ never imports renderer/ code';

  return undefined;
}

export const layersRule: Rule.RuleModule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the layer rules of ARCHITECTURE.md' },
    schema: [{ type: 'object', properties: { root: { type: 'string' } }, additionalProperties: false }],
    messages: { layer: 'Layer rule: {{why}} (import of "{{spec}}").' },
  },
  create(context) {
    const options = (context.options[0] ?? {}) as Options;
    const root = options.root ?? context.cwd;
    const fromRel = path.relative(root, context.filename).split(path.sep).join('/');
    if (fromRel.startsWith('..')) return {};
    const check = (node: Rule.Node, source: unknown, typeOnly: boolean): void => {
      if (typeof source !== 'string') return;
      const why = layerViolation(fromRel, source, typeOnly);
      if (why) context.report({ node, messageId: 'layer', data: { why, spec: source } });
    };
    type WithKind = { importKind?: string; exportKind?: string };
    return {
      ImportDeclaration(node) {
        const kind = (node as unknown as WithKind).importKind;
        const allTypeSpecifiers =
          node.specifiers.length > 0 && node.specifiers.every((s) => (s as unknown as WithKind).importKind === 'type');
        check(node, node.source.value, kind === 'type' || allTypeSpecifiers);
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value, (node as unknown as WithKind).exportKind === 'type');
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value, (node as unknown as WithKind).exportKind === 'type');
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal') check(node, node.source.value, false);
      },
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal')
          check(node, node.arguments[0].value, false);
      },
    };
  },
};

export default { rules: { layers: layersRule } };
