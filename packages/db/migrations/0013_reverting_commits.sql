-- The DORA keys look for the commits that revert others among a history of hundreds of thousands
-- of commits; few do, so a partial index holds just those.
create index deployment_commits_reverting on deployment_commits (deployment_id)
  where cardinality(reverts) > 0;
