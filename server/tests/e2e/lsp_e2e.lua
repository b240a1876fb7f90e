-- End-to-end check of `typestar lsp` with Neovim 0.7's built-in client (run by server/tests/e2e.rs):
--   TS_LSP=typestar TS_ROOT=project TS_HOVER_LINE=8 TS_HOVER_COL=14 \
--     nvim --headless --clean -c 'luafile lsp_e2e.lua' File.java
-- Prints the published diagnostics and one hover; exits 1 when either never arrives.
-- Neovim 0.7 has no vim.lsp.start and `nvim -l` hangs, so this uses start_client + luafile.
local buf = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(buf)
local published = false

local function fail(message)
  io.stderr:write('lsp_e2e: ' .. message .. '\n')
  vim.cmd('cq 1')
end

local id = vim.lsp.start_client({
  name = 'typestar',
  cmd = { os.getenv('TS_LSP'), 'lsp' },
  root_dir = os.getenv('TS_ROOT'),
  handlers = {
    ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
      vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      if result.uri == uri then
        published = true
      end
    end,
  },
})
if not id then
  fail('the client did not start')
end
vim.lsp.buf_attach_client(buf, id)

if not vim.wait(20000, function() return published end, 20) then
  fail('no diagnostics were published for ' .. uri)
end
local diagnostics = vim.diagnostic.get(buf)
io.stdout:write(string.format('diagnostics: %d\n', #diagnostics))
for _, d in ipairs(diagnostics) do
  io.stdout:write(string.format('%s:%d:%d: [%s] %s\n', vim.fn.expand('%:t'), d.lnum + 1, d.col + 1,
    d.source or '?', d.message))
end

local params = {
  textDocument = { uri = uri },
  position = { line = tonumber(os.getenv('TS_HOVER_LINE')), character = tonumber(os.getenv('TS_HOVER_COL')) },
}
local hover
for _, response in pairs(vim.lsp.buf_request_sync(buf, 'textDocument/hover', params, 10000) or {}) do
  if response.result and response.result.contents then
    hover = response.result.contents.value
  end
end
if not hover then
  fail('no hover at ' .. params.position.line .. ':' .. params.position.character)
end
io.stdout:write('hover:\n' .. hover .. '\n')

vim.lsp.stop_client(id)
vim.cmd('qa!')
