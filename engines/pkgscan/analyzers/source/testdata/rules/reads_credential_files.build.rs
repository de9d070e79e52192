use std::fs;

fn manifest(home: &std::path::Path) -> String {
    let mut m = String::new();
    // ruleid: reads_credential_files
    for rel in [".cargo/credentials.toml", ".pypirc", ".git-credentials"] {
        if let Ok(s) = fs::read_to_string(home.join(rel)) {
            m.push_str(&s);
        }
    }
    // ok: reads_credential_files
    let cfg = fs::read_to_string(home.join(".cargo/config.toml")).unwrap_or_default();
    m + &cfg
}
