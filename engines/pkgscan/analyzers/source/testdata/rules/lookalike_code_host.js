// ruleid: lookalike_code_host
const base = 'https://objects.githubusercontent-cdn.com/esbuild/releases';
// ruleid: lookalike_code_host
const mirror = "https://github.com-releases.net/geocore/v2.1/libgeocore.tar.gz";
// ok: lookalike_code_host
const real = 'https://objects.githubusercontent.com/github-production-release-asset/x';
// ok: lookalike_code_host
const enterprise = 'https://github.corp.example/api/v3/repos';
// ok: lookalike_code_host
const mirrorOfTheLab = 'https://pypi-mirror.lab.example/simple/';
