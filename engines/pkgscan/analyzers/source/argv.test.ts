import { describe, expect, it } from 'vitest';
import { rewrittenView } from './aliases.js';
import { argvEdits } from './argv.js';
import { moduleAliasEdits } from './builtins.js';

const view = (code: string, language: 'javascript' | 'python' = 'python'): string => rewrittenView(code, argvEdits(code, language)).text;

describe('argument lists read as command lines', () => {
  it("joins a program's literal arguments, with a space before the values that follow", () => {
    expect(view('subprocess.call(["security", "find-generic-password", "-wa", label])')).toBe('subprocess.call(["security find-generic-password -wa ", label])');
    expect(view('subprocess.run(["curl", "-s", "-F", "f=@" + archive, url])')).toBe('subprocess.run(["curl -s -F f=@" + archive, url])');
    expect(view("spawn('security', ['dump-keychain', '-d'])", 'javascript')).toBe("spawn(['security dump-keychain -d'])");
  });

  it('reads the running interpreter named as the program (sys.executable, process.execPath)', () => {
    expect(view('subprocess.run([sys.executable, "-m", "twine", "upload", out])')).toBe('subprocess.run([sys.executable, "python -m twine upload ", out])');
    expect(view("spawn(process.execPath, ['--input-type=module', '-e', code])", 'javascript')).toBe("spawn(process.execPath, ['node --input-type=module -e ', code])");
    // one literal after the interpreter is no command line to read
    expect(argvEdits('subprocess.run([sys.executable, "setup.py"])', 'python')).toEqual([]);
  });

  it('leaves lists that do not start with a program, and a lone program', () => {
    expect(argvEdits('x = ["alpha", "beta"]', 'python')).toEqual([]);
    expect(argvEdits('subprocess.run(["git"], cwd=d)', 'python')).toEqual([]);
    // a list of program names in a file that starts no process
    expect(argvEdits('names = ["curl", "wget"] + extra', 'python')).toEqual([]);
    expect(argvEdits('names = ["curl", "wget"]\nsubprocess.run(names)', 'python')).toHaveLength(1);
  });
});

describe('Python modules under names of the file’s own', () => {
  it('writes each use of the alias as the module', () => {
    const code = 'import subprocess as _sp\nimport os as _os\n_sp.Popen(["nohup", b])\n_os.chmod(b, 0o755)\nx._sp.y = 1';
    expect(rewrittenView(code, moduleAliasEdits(code)).text).toBe('import subprocess as _sp\nimport os as _os\nsubprocess.Popen(["nohup", b])\nos.chmod(b, 0o755)\nx._sp.y = 1');
    expect(moduleAliasEdits('import numpy as np\nnp.array(1)')).toEqual([]);
  });

  it('writes calls of functions imported by name as the module’s, not their definitions, members or other modules’ names', () => {
    const code = 'from socket import gethostname, create_connection as cc  # net\nfrom getpass import getuser\nfrom numpy import array\nh = gethostname()\ns = cc((host, 443))\nu = getuser ()\nx.gethostname()\ndef getuser(): pass\narray(1)';
    expect(rewrittenView(code, moduleAliasEdits(code)).text).toBe(
      'from socket import gethostname, create_connection as cc  # net\nfrom getpass import getuser\nfrom numpy import array\nh = socket.gethostname()\ns = socket.create_connection((host, 443))\nu = getpass.getuser ()\nx.gethostname()\ndef getuser(): pass\narray(1)',
    );
    expect(moduleAliasEdits('from os import path\npath.join(a, b)')).toEqual([]);
  });
});
