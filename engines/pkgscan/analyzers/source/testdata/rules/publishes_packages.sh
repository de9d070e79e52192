# ruleid: publishes_packages
npm publish --access public
# ok: publishes_packages
npm pack --dry-run
