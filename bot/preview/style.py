"""The preview pages' look: Discord's dark theme in CSS, and the script that measures a page."""

MEASURE = """
window.addEventListener('load', function () {
  var m = document.createElement('div');
  m.id = 'measured-height';
  m.setAttribute('data-height', String(Math.ceil(document.body.getBoundingClientRect().height)));
  document.body.appendChild(m);
});
"""
"""Writes the page's height into the page once its pictures are loaded: `chromium --dump-dom`
prints it (bot/preview/chromium.py)."""

# Discord's dark theme, as its client draws it (sizes in CSS pixels). Embed pictures fit in
# 400 x 300, as in Discord's client; on a phone the gutter is narrower and inline fields stack.
CSS = """
* { box-sizing: border-box; }
body { margin: 0; padding: 8px 0 16px; background: #313338; color: #dbdee1;
  font: 16px/1.375 "gg sans", "Noto Sans", "DejaVu Sans", sans-serif; }
.pagetitle { font-size: 12px; color: #949ba4; margin: 0 16px 8px; font-weight: 600; }
.where { font-size: 12px; color: #949ba4; margin: 12px 16px 0 72px; text-transform: uppercase; }
.where .note { text-transform: none; font-style: italic; }
.msg { display: flex; padding: 2px 16px 2px 16px; }
.avatar { flex: none; width: 40px; height: 40px; border-radius: 50%; background: #5865f2; color: #fff;
  display: flex; align-items: center; justify-content: center; font-weight: 700; margin-right: 16px; }
.main { min-width: 0; flex: 1; }
.head { font-weight: 500; color: #f2f3f5; }
.tag { background: #5865f2; color: #fff; font-size: 10px; border-radius: 3px; padding: 0 4px; margin-left: 4px;
  vertical-align: 2px; }
.content { white-space: normal; overflow-wrap: anywhere; }
.embed { max-width: 520px; background: #2b2d31; border-left: 4px solid #1e1f22; border-radius: 4px;
  padding: 8px 16px 16px 12px; margin-top: 4px; overflow-wrap: anywhere; }
.author { font-size: 14px; font-weight: 600; color: #f2f3f5; margin-top: 8px; }
.title { font-size: 16px; font-weight: 600; color: #f2f3f5; margin-top: 8px; }
.description { font-size: 14px; margin-top: 8px; }
.fields { display: grid; grid-template-columns: repeat(12, 1fr); gap: 8px; margin-top: 8px; }
.field { grid-column: 1 / 13; font-size: 14px; min-width: 0; }
.field.inline { grid-column: span 4; }
.fname { font-weight: 600; color: #f2f3f5; margin-bottom: 2px; }
.image { display: block; margin-top: 16px; max-width: min(400px, 100%); max-height: 300px; border-radius: 4px; }
.attachment { display: block; margin-top: 8px; max-width: min(400px, 100%); max-height: 300px; border-radius: 8px; }
.missing { color: #f23f43; margin-top: 8px; font-size: 14px; }
.footer { font-size: 12px; color: #b5bac1; margin-top: 8px; }
code { white-space: pre-wrap; font-family: Consolas, "Noto Sans Mono", "DejaVu Sans Mono", monospace; font-size: 85%;
  background: #1e1f22; border-radius: 3px; padding: 0 2px; }
pre.codeblock { background: #2b2d31; border: 1px solid #1e1f22; border-radius: 4px; padding: 7px;
  margin: 4px 0; white-space: pre-wrap; font-size: 14px; }
pre.codeblock code { background: none; padding: 0; font-size: 100%; }
.embed pre.codeblock { background: #1e1f22; }
.h1 { font-size: 24px; font-weight: 700; } .h2 { font-size: 20px; font-weight: 700; }
.h3 { font-size: 16px; font-weight: 700; } .subtext { font-size: 12px; color: #949ba4; }
.quote { border-left: 4px solid #4e5058; padding-left: 12px; }
.spoiler { background: #1e1f22; color: #1e1f22; border-radius: 3px; }
.time { background: #404249; border-radius: 3px; padding: 0 2px; }
.mention { background: rgba(88,101,242,.3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; }
a { color: #00a8fc; text-decoration: none; }
.components { margin-top: 4px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin: 8px 0; }
.button { display: inline-flex; align-items: center; gap: 4px; height: 32px; min-width: 60px; padding: 2px 16px;
  border-radius: 8px; font-size: 14px; font-weight: 500; color: #fff; justify-content: center; white-space: nowrap;
  max-width: 100%; overflow: hidden; text-overflow: ellipsis; }
.button.primary { background: #5865f2; } .button.secondary { background: #4e5058; }
.button.success { background: #248046; } .button.danger { background: #da373c; }
.button.link { background: #4e5058; } .button.premium { background: #5865f2; }
.button.disabled, .select.disabled { opacity: .5; }
.emoji { font-family: "Noto Color Emoji", sans-serif; font-size: 18px; line-height: 1; }
.select { width: 100%; max-width: 400px; background: #1e1f22; border: 1px solid #1e1f22; border-radius: 8px;
  font-size: 14px; }
.select summary { list-style: none; display: flex; justify-content: space-between; align-items: center;
  height: 40px; padding: 0 8px 0 12px; color: #949ba4; cursor: pointer; }
.select summary::-webkit-details-marker { display: none; }
.select ul { list-style: none; margin: 0; padding: 4px 0; background: #2b2d31; border-radius: 0 0 8px 8px; }
.select li { padding: 6px 12px; display: flex; flex-direction: column; }
.select li small { color: #b5bac1; }
@media (max-width: 500px) {
  .where { margin-left: 56px; }
  .msg { padding: 2px 8px 2px 8px; }
  .avatar { margin-right: 8px; }
  .field.inline { grid-column: 1 / 13; }
}
"""
