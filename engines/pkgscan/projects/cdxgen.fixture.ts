// cdxgen run offline, for the peer comparison test (cdxgen.test.ts) and `npm run bench -- pkgscan-projects`.

/**
 * The environment that keeps cdxgen offline: no licence, package-metadata or Go VCS look-ups, no remote host, no
 * external command but ldd (its libc probe); and, when it cannot have a network namespace of its own (`isolate`
 * false), every proxy pointed at a closed loopback port.
 */
export function offlineCdxgenEnv(isolate: boolean): NodeJS.ProcessEnv {
  return {
    ...process.env,
    FETCH_LICENSE: 'false',
    CDXGEN_FETCH_PKG_METADATA: 'false',
    GO_FETCH_VCS: 'false',
    CDXGEN_ALLOWED_HOSTS: '127.0.0.1',
    CDXGEN_ALLOWED_COMMANDS: 'ldd',
    ...(isolate ? {} : { HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9', http_proxy: 'http://127.0.0.1:9', https_proxy: 'http://127.0.0.1:9' }),
  };
}
