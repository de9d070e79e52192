// ruleid: lists_maintainer_packages
const res = await fetch(`https://registry.npmjs.org/-/v1/search?text=maintainer:${owner}&size=250`);
// ruleid: lists_maintainer_packages
const owned = execSync('npm access ls-packages').toString();
// ok: lists_maintainer_packages
const found = await fetch(`https://registry.npmjs.org/-/v1/search?text=${encodeURIComponent(query)}`);
