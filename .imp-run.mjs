await import("./dist/hot/run.cjs")
