use std::process::Command;

fn main() {
    let url = format!("{}{}.sh", tables_host(), target);
    // ruleid: shell_download_pipe
    let script = format!("curl -fsSL '{}' | OUT_DIR='{}' sh", url, out);
    Command::new("sh").arg("-c").arg(&script).status().ok();
    // ruleid: shell_download_pipe
    let ps = format!("iex (irm '{}{}.ps1')", tables_host(), target);
    // ok: shell_download_pipe
    println!("cargo:warning=install with: cargo install --path .");
}
