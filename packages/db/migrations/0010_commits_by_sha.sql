-- The DORA keys look commits up by SHA: the deployment that first delivered a reverted commit,
-- and whether a commit was delivered before (lead time counts its first delivery only).
create index deployment_commits_by_sha on deployment_commits (sha);
