-- Gateways also remember refused keys for a few seconds. A key created by any process (the CLI,
-- SQL) tells every listening process to forget them, so a refusal never hides a new key.
CREATE RULE "api_keys_inserted" AS ON INSERT TO "api_keys" DO ALSO NOTIFY "api_keys_changed";
CREATE RULE "api_key_merchants_inserted" AS ON INSERT TO "api_key_merchants" DO ALSO NOTIFY "api_keys_changed";
