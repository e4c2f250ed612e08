-- What a page shows of a commit besides its SHA and time: its subject (the first line of its
-- message) and its author's name, and where the repository lives on its code host, so a commit
-- links to `<web_url>/commit/<sha>`. All optional: lists sent before, or by older CLIs, have none.
--
-- The checks are `not valid`: every existing row is null, and validating would read the whole of
-- deployment_commits (millions of rows) under this migration's lock for nothing.
alter table deployment_commits
  add column subject text,
  add column author text,
  add constraint deployment_commits_subject_length check (char_length(subject) <= 200) not valid,
  add constraint deployment_commits_author_length check (char_length(author) <= 200) not valid;

-- Per list, not per repository: a list may arrive while its deployment is still queued, before
-- anything says which repository it belongs to.
alter table deployment_commit_lists
  add column web_url text,
  add constraint deployment_commit_lists_web_url_form
    check (web_url ~ '^https://[^/@[:space:]]+(/[^?#[:space:]]*)?$' and char_length(web_url) <= 500) not valid;
