# ruleid: baas_database_write
url = "https://firestore.googleapis.com/v1/projects/{}/databases/(default)/documents/history".format(_PROJECT)
# ok: baas_database_write
HELP = "https://supabase.com/docs"
