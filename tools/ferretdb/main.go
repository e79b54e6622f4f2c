// Command ferretdb-launcher runs an embedded FerretDB (SQLite backend) for the app.
// It exists because `go install .../cmd/ferretdb` builds a binary that panics at
// start (its version file is not part of the module), while the embeddable
// package works as a library.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on (loopback only)")
	dir := flag.String("dir", "./data/db", "directory for the SQLite files")
	watchParent := flag.Bool("watch-parent", false, "exit when the process that started us goes away")
	flag.Parse()

	if err := os.MkdirAll(*dir, 0o700); err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb-launcher: %v\n", err)
		os.Exit(1)
	}

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Handler:   "sqlite",
		SQLiteURL: "file:" + *dir + "/",
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb-launcher: %v\n", err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	if *watchParent {
		go exitWithParent(ctx, stop)
	}

	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()

	fmt.Printf("ferretdb listening on %s\n", f.MongoDBURI())
	if err := <-done; err != nil && ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "ferretdb-launcher: %v\n", err)
		os.Exit(1)
	}
}

// exitWithParent stops the server when the parent dies, so a crashed app never
// leaves an orphaned database holding the data directory.
func exitWithParent(ctx context.Context, stop context.CancelFunc) {
	parent := os.Getppid()
	ticker := time.NewTicker(500 * time.Millisecond)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			if os.Getppid() != parent {
				stop()
				return
			}
		}
	}
}
