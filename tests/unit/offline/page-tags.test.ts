import { describe, expect, it } from "vitest";
import { linkedFilesOf, startTagsOf } from "@/lib/offline/page-tags";

describe("the files a page's own tags load", () => {
  it("are the src of its scripts and the href of its stylesheets and preloads, decoded, as written", () => {
    expect(
      linkedFilesOf(`<link rel="stylesheet" href="/a.css"><link rel="Preload Stylesheet" href="/b.woff2">
        <link rel="modulepreload" href='/c.js'><link rel=icon href=/d.png><link href="/e.css">
        <script src="/f.js?x=1&amp;y=2"></script><script>var inline = 1;</script><img src="/g.png">`),
    ).toEqual(["/a.css", "/b.woff2", "/c.js", "/f.js?x=1&y=2"]);
  });

  it("drops a value with a reference it has no table for, an object's own property names included", () => {
    expect(
      linkedFilesOf(
        `<script src="/a&constructor;.js"></script><script src="/b&toString;.js"></script><script src="/c&copy;.js"></script>`,
      ),
    ).toEqual([]);
  });

  it("reads attributes as the browser does: a quoted `>` is in the value, the first of two alike wins, names and tags in any case", () => {
    expect(linkedFilesOf(`<link data-x="a>b" REL="stylesheet" data-y='c>d' HREF="/q.css">`)).toEqual(["/q.css"]);
    expect(linkedFilesOf(`<script src="/first.js" src="/second.js"></script>`)).toEqual(["/first.js"]);
    expect(linkedFilesOf(`<ScRiPt sRc=/u.js></sCrIpT><script/src="/slash.js"></script>`)).toEqual([
      "/u.js",
      "/slash.js",
    ]);
  });

  it("sees no tag inside a script, a style, a textarea, a title, a comment, a CDATA section or an end tag", () => {
    const html = `<script>document.write('<script src="/1.js"></scr' + 'ipt>')</script>
      <style>/* <link rel="stylesheet" href="/2.css"> */</style>
      <textarea></textareax><script src="/3.js"></script></textarea>
      <title><script src="/4.js"></script></TITLE >
      <!-- a -- <script src="/5.js"></script> --!> <!--> <!---> <!-- <script src="/6.js"> -->
      <![CDATA[ <script src="/7.js"></script> ]]>
      </p data-x="<script src='/8.js'>">
      <?php <script src="/9.js"> ?>
      <script src="/kept.js"></script>`;
    expect(linkedFilesOf(html)).toEqual(["/kept.js"]);
  });

  it("stops, rather than guess, where a browser would read differently: `<!--` inside a script, a plaintext, the text ending inside a tag", () => {
    expect(
      linkedFilesOf(
        `<script src="/a.js"></script><script><!--<script></script>--></script><script src="/b.js"></script>`,
      ),
    ).toEqual(["/a.js"]);
    expect(linkedFilesOf(`<script src="/a.js"></script><plaintext><script src="/b.js"></script>`)).toEqual(["/a.js"]);
    expect(linkedFilesOf(`<script src="/a.js"></script><script src="/b.js"`)).toEqual(["/a.js"]);
    expect(linkedFilesOf(`<script src="/a.js"></script><script src="/b.js>`)).toEqual(["/a.js"]);
    expect(linkedFilesOf(`<script src="/a.js"></script><!-- <script src="/b.js">`)).toEqual(["/a.js"]);
  });

  it("drops a value whose character references it cannot read, and decodes those it can", () => {
    expect(
      linkedFilesOf(`<script src="/a.js&ampx"></script><script src="/b&hellip;.js"></script><script src="/c&amp.js"></script>
        <script src="&#x2F;d&#46;js"></script><script src="/e&#0;.js"></script>`),
    ).toEqual(["/d.js"]);
  });

  it("reads each tag's attributes, and none of its content", () => {
    expect(startTagsOf(`<p class=a>text <b>bold</b></p><br/>`).map((tag) => [tag.name, [...tag.attributes]])).toEqual([
      ["p", [["class", "a"]]],
      ["b", []],
      ["br", []],
    ]);
  });
});
