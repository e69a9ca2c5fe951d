// Relational model for the in-memory node:sqlite database.
export const SCHEMA = `
CREATE TABLE orgs (
  org_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  moderation_mode TEXT,
  policy_workflow TEXT
);
CREATE TABLE api_keys (
  key_value TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES orgs(org_id),
  name TEXT NOT NULL,
  profile TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT
);
CREATE TABLE agents (
  org_id TEXT NOT NULL REFERENCES orgs(org_id),
  agent_id TEXT NOT NULL,
  name TEXT,
  email TEXT,
  role TEXT,
  PRIMARY KEY (org_id, agent_id)
);
CREATE TABLE queues (
  org_id TEXT NOT NULL REFERENCES orgs(org_id),
  queue_id TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (org_id, queue_id)
);
CREATE TABLE customers (
  org_id TEXT NOT NULL REFERENCES orgs(org_id),
  user_id TEXT NOT NULL,
  name TEXT NOT NULL,
  username TEXT NOT NULL,
  email TEXT,
  follower_count INTEGER,
  PRIMARY KEY (org_id, user_id)
);
CREATE TABLE actions (
  org_id TEXT NOT NULL REFERENCES orgs(org_id),
  action_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  status TEXT NOT NULL,
  platform TEXT NOT NULL,
  record_type TEXT,
  is_public INTEGER NOT NULL,
  source_url TEXT,
  queue_id TEXT,
  initial_queue_id TEXT,
  sentiment TEXT,
  sentiment_score REAL,
  moderation TEXT,
  assignee_id TEXT,
  user_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT,
  initial_message_time TEXT,
  initial_response_time TEXT,
  close_time TEXT,
  claim_time TEXT,
  first_response_secs INTEGER,
  handle_secs INTEGER,
  server_name TEXT NOT NULL,
  channel_name TEXT NOT NULL,
  csat_score TEXT,
  csat_feedback TEXT,
  estimated_csat REAL,
  resolution_quality REAL,
  sentiment_change REAL,
  rubric_score REAL,
  root_message_text TEXT,
  thread_id TEXT NOT NULL,
  easy_id TEXT,
  total_messages INTEGER,
  total_user_messages INTEGER,
  total_agent_messages INTEGER,
  origin TEXT NOT NULL DEFAULT 'seed',
  PRIMARY KEY (org_id, action_id)
);
CREATE INDEX actions_created ON actions(org_id, created_at);
CREATE INDEX actions_updated ON actions(org_id, updated_at);
CREATE TABLE messages (
  org_id TEXT NOT NULL,
  action_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  pos INTEGER NOT NULL,
  ts TEXT NOT NULL,
  author TEXT NOT NULL,
  author_id TEXT,
  author_type TEXT NOT NULL CHECK (author_type IN ('USER','AGENT','BOT')),
  body TEXT NOT NULL,
  parent_id TEXT,
  media_urls TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (org_id, action_id, message_id),
  FOREIGN KEY (org_id, action_id) REFERENCES actions(org_id, action_id)
);
CREATE TABLE comments (
  org_id TEXT NOT NULL,
  action_id TEXT NOT NULL,
  pos INTEGER NOT NULL,
  body TEXT NOT NULL,
  author_native_id TEXT NOT NULL,
  author_native_name TEXT
);
CREATE TABLE tags (
  org_id TEXT NOT NULL,
  tag_id TEXT NOT NULL,
  name TEXT NOT NULL,
  group_name TEXT,
  PRIMARY KEY (org_id, tag_id)
);
CREATE TABLE action_tags (
  org_id TEXT NOT NULL,
  action_id TEXT NOT NULL,
  tag_id TEXT NOT NULL,
  closing INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, action_id, tag_id, closing)
);
CREATE TABLE custom_field_defs (
  org_id TEXT NOT NULL,
  field_name TEXT NOT NULL,
  display_name TEXT NOT NULL,
  field_type TEXT NOT NULL,
  options TEXT,
  pos INTEGER NOT NULL,
  PRIMARY KEY (org_id, field_name)
);
CREATE TABLE custom_field_values (
  org_id TEXT NOT NULL,
  action_id TEXT NOT NULL,
  field_name TEXT NOT NULL,
  value_json TEXT NOT NULL,
  provenance_json TEXT,
  PRIMARY KEY (org_id, action_id, field_name)
);
CREATE TABLE moderation_cases (
  org_id TEXT NOT NULL,
  case_id TEXT NOT NULL PRIMARY KEY,
  external_id TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  submission_json TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (org_id, external_id)
);
CREATE TABLE moderation_evaluations (
  evaluation_id TEXT PRIMARY KEY,
  case_id TEXT NOT NULL REFERENCES moderation_cases(case_id),
  policy_workflow TEXT NOT NULL,
  analysis_status TEXT NOT NULL,
  decision_json TEXT,
  failure_code TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE ingest_batches (
  batch_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  server_id TEXT NOT NULL,
  server_name TEXT NOT NULL,
  channel_id TEXT,
  channel_name TEXT,
  processing_level TEXT NOT NULL,
  source_json TEXT,
  received_at TEXT NOT NULL,
  processed_at TEXT
);
CREATE TABLE ingested_records (
  org_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  server_id TEXT NOT NULL,
  external_id TEXT NOT NULL,
  batch_id TEXT NOT NULL,
  thread_external_id TEXT,
  parent_external_id TEXT,
  author_id TEXT NOT NULL,
  author_name TEXT NOT NULL,
  title TEXT,
  body TEXT NOT NULL,
  score REAL,
  created_at TEXT NOT NULL,
  url TEXT,
  record_type TEXT NOT NULL,
  custom_fields_json TEXT,
  state TEXT NOT NULL,
  PRIMARY KEY (org_id, platform, server_id, external_id)
);
`;
