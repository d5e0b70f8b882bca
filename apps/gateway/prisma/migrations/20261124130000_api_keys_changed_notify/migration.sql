-- Gateways remember authenticated keys. Any change to a key or to its merchants (a revocation
-- by the CLI or by SQL, a deletion, a cascade) tells every listening process to forget them.
-- NOTIFY is delivered when the changing transaction commits, and only then. Rules rather than
-- a trigger: the driver adapter splits migration scripts at every semicolon, which a plpgsql
-- function body would not survive (nor may a comment here contain one).
CREATE RULE "api_keys_updated" AS ON UPDATE TO "api_keys" DO ALSO NOTIFY "api_keys_changed";
CREATE RULE "api_keys_deleted" AS ON DELETE TO "api_keys" DO ALSO NOTIFY "api_keys_changed";
CREATE RULE "api_key_merchants_updated" AS ON UPDATE TO "api_key_merchants" DO ALSO NOTIFY "api_keys_changed";
CREATE RULE "api_key_merchants_deleted" AS ON DELETE TO "api_key_merchants" DO ALSO NOTIFY "api_keys_changed";
