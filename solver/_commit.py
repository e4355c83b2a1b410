"""The commit this source tree was exported from: `git archive` fills it in (.gitattributes,
export-subst), so a build installed from an archive can name its commit. In a checkout it stays
the unexpanded placeholder, and the checkout itself is asked instead (solver.bench.git_commit)."""
COMMIT = "$Format:%H$"
