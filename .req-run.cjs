require("./dist/hot/run.cjs")
