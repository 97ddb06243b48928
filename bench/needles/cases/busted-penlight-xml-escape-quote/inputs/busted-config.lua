return {
  default = {
    verbose = true,
    output = "gtest",
    lpath = "./lua/?.lua;./lua/?/init.lua",
  }
}
-- vim: ft=lua
