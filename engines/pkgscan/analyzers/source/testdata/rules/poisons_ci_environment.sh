# fixture: path=scripts/ci-setup.sh
# A setup script that preloads a library into every later step's programs (high).
# ruleid: poisons_ci_environment high
echo "LD_PRELOAD=$PWD/.cache/libstat.so" >> "$GITHUB_ENV"
# ok: poisons_ci_environment
echo "FORCE_COLOR=1" >> "$GITHUB_ENV"
