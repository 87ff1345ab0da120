-- Runs inside FCEUX (--loadlua) and lets emu_tests/fceux_harness.py drive
-- the emulator: one command per line on the FIFO named by $XIANGQI_FCEUX_IN,
-- one reply per line on the FIFO named by $XIANGQI_FCEUX_OUT.
--
--   frame N MASK      run N frames with the pads held (MASK: cynes' layout,
--                     pad 1 in bits 0-7 = A B Select Start Up Down Left Right
--                     from bit 7 down, pad 2 in bits 8-15)
--                     -> "ok FRAMECOUNT"
--   peek ADDR N       -> "ok HEX" (N bytes from the CPU bus)
--   poke ADDR HEX     -> "ok"
--   screen PATH       write the last frame to PATH: 256x240 pixels, 4 bytes
--                     each (r, g, b, FCEUX palette index) -> "ok"
--   reset             the console's Reset button -> "ok"
--   quit              -> "ok", then FCEUX exits
--
-- Errors answer "err MESSAGE".  When the driver goes away (end of file on
-- the command FIFO) FCEUX exits too.

local PAD_NAMES = {"A", "B", "select", "start", "up", "down", "left", "right"}

local function pad_table(bits)
  local t = {}
  for i, name in ipairs(PAD_NAMES) do
    t[name] = math.floor(bits / 2 ^ (8 - i)) % 2 == 1
  end
  return t
end

local function hex(s)
  return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

local function unhex(h)
  local bytes = {}
  for pair in h:gmatch("%x%x") do bytes[#bytes + 1] = tonumber(pair, 16) end
  return bytes
end

local function run_frames(n, mask)
  local pad1, pad2 = pad_table(mask % 256), pad_table(math.floor(mask / 256) % 256)
  for _ = 1, n do
    joypad.set(1, pad1)   -- FCEUX applies joypad.set to the next frame only
    joypad.set(2, pad2)
    emu.frameadvance()
  end
  return tostring(emu.framecount())
end

local function write_screen(path)
  local f = assert(io.open(path, "wb"))
  local row = {}
  for y = 0, 239 do
    for x = 0, 255 do
      local r, g, b, p = emu.getscreenpixel(x, y, true)
      row[x + 1] = string.char(r, g, b, p % 256)
    end
    f:write(table.concat(row))
  end
  f:close()
end

-- Every command but "frame" runs under pcall; "frame" cannot: Lua 5.1
-- cannot yield (emu.frameadvance) across a pcall.
local COMMANDS = {
  peek = function(addr, n) return hex(memory.readbyterange(tonumber(addr), tonumber(n))) end,
  poke = function(addr, h)
    for i, v in ipairs(unhex(h)) do memory.writebyte(tonumber(addr) + i - 1, v) end
    return ""
  end,
  screen = function(path) write_screen(path); return "" end,
  reset = function() emu.softreset(); return "" end,
}

local cmd_in = assert(io.open(assert(os.getenv("XIANGQI_FCEUX_IN"), "XIANGQI_FCEUX_IN not set"), "r"))
local reply_out = assert(io.open(assert(os.getenv("XIANGQI_FCEUX_OUT"), "XIANGQI_FCEUX_OUT not set"), "w"))

local function reply(text)
  reply_out:write(text, "\n")
  reply_out:flush()
end

emu.speedmode("maximum")
reply("ready " .. emu.framecount())
while true do
  local line = cmd_in:read("*l")
  if line == nil or line == "quit" then
    if line then reply("ok") end
    break
  end
  local words = {}
  for w in line:gmatch("%S+") do words[#words + 1] = w end
  if words[1] == "frame" then
    local n, mask = tonumber(words[2] or ""), tonumber(words[3] or "0")
    if n and mask and n >= 1 then
      reply("ok " .. run_frames(n, mask))
    else
      reply("err bad frame command: " .. line)
    end
  elseif COMMANDS[words[1] or ""] then
    local ok, result = pcall(COMMANDS[words[1]], (table.unpack or unpack)(words, 2))
    if ok then
      reply(result == "" and "ok" or "ok " .. result)
    else
      reply("err " .. tostring(result):gsub("\n", " "))
    end
  else
    reply("err unknown command: " .. line)
  end
end
emu.exit()
