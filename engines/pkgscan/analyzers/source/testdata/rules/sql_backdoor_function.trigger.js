// A definer function with a fixed body, revoked from PUBLIC.
exports.UP =
  // ok: sql_backdoor_function
  'CREATE FUNCTION public.bump_counter(t text) RETURNS void LANGUAGE plpgsql SECURITY DEFINER AS $$\n' +
  'BEGIN\n  UPDATE counters SET n = n + 1 WHERE name = t;\nEND;\n$$;\n' +
  'REVOKE ALL ON FUNCTION public.bump_counter(text) FROM PUBLIC;\n' +
  'GRANT EXECUTE ON FUNCTION public.bump_counter(text) TO app_writer;\n';
