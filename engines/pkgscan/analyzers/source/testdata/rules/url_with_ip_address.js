// ruleid: url_with_ip_address
fetch('http://45.9.148.10/gate.php');
// ok: url_with_ip_address
fetch('http://127.0.0.1:8080/health');
// ok: url_with_ip_address
fetch('http://100.100.100.200/latest/meta-data/ram/security-credentials/');
