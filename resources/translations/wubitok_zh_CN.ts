<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CandidateBar</name>
    <message>
        <source>no candidates</source>
        <translation>无候选</translation>
    </message>
</context>
<context>
    <name>CompareChart</name>
    <message numerus="yes">
        <source>%Ln line(s)</source>
        <translation>
            <numerusform>%Ln 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln character(s)</source>
        <translation>
            <numerusform>%Ln 个字符</numerusform>
        </translation>
    </message>
    <message>
        <source>Characters per token</source>
        <translation>每词元字符数</translation>
    </message>
    <message>
        <source>Share of tokens by length (characters)</source>
        <translation>按长度（字符）的词元占比</translation>
    </message>
    <message>
        <source>part</source>
        <translation>部分</translation>
    </message>
    <message>
        <source>part = a token that is a piece of one character (byte-level) or covers no character</source>
        <translation>部分 = 只是一个字符的一部分（字节级）或不覆盖任何字符的词元</translation>
    </message>
</context>
<context>
    <name>ComparePane</name>
    <message>
        <source>Add tokenizer</source>
        <translation>添加分词器</translation>
    </message>
    <message>
        <source>Tokenizers:</source>
        <translation>分词器：</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Corpus files</source>
        <translation>语料文件</translation>
    </message>
    <message>
        <source>Compare on:</source>
        <translation>对比对象：</translation>
    </message>
    <message>
        <source>Type or paste a text to compare the tokenizers on</source>
        <translation>输入或粘贴一段文本来对比各分词器</translation>
    </message>
    <message>
        <source>Text to compare the tokenizers on</source>
        <translation>用于比较分词器的文本</translation>
    </message>
    <message>
        <source>Export report:</source>
        <translation>导出报告：</translation>
    </message>
    <message>
        <source>PNG chart</source>
        <translation>PNG 图表</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>(no tokenizer)</source>
        <translation>（无分词器）</translation>
    </message>
    <message>
        <source>{name} could not be loaded: {reason}</source>
        <translation>无法加载 {name}：{reason}</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在对比…</translation>
    </message>
    <message>
        <source>Comparison failed</source>
        <translation>对比失败</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>Tokenizer comparison</source>
        <translation>分词器对比</translation>
    </message>
    <message>
        <source>Saved {}</source>
        <translation>已保存 {}</translation>
    </message>
</context>
<context>
    <name>ConvertPane</name>
    <message>
        <source>Codes:</source>
        <translation>编码：</translation>
    </message>
    <message>
        <source>Full codes</source>
        <translation>全码</translation>
    </message>
    <message>
        <source>Shortest codes</source>
        <translation>最短码</translation>
    </message>
    <message>
        <source>Shortest: the shortest code that types the character as first candidate</source>
        <translation>最短码：能把该字作为首选打出的最短编码</translation>
    </message>
    <message>
        <source>Separator:</source>
        <translation>分隔符：</translation>
    </message>
    <message>
        <source>Space</source>
        <translation>空格</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Tab</source>
        <translation>制表符</translation>
    </message>
    <message>
        <source>Between the codes of adjacent characters; codes must be separated to convert them back</source>
        <translation>相邻汉字编码之间的分隔符；编码之间须有分隔才能转换回汉字</translation>
    </message>
    <message>
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <source>Wubi codes</source>
        <translation>五笔编码</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation>字符编码</translation>
    </message>
    <message>
        <source>Encoding:</source>
        <translation>字符编码：</translation>
    </message>
    <message>
        <source>Type or paste Chinese text: 你好，世界</source>
        <translation>输入或粘贴中文：你好，世界</translation>
    </message>
    <message>
        <source>…or type Wubi codes: wqiy vbg</source>
        <translation>……或输入五笔编码：wqiy vbg</translation>
    </message>
    <message>
        <source>Shared codes — double-click to choose another character</source>
        <translation>重码——双击可改选其他字词</translation>
    </message>
    <message>
        <source>Shared codes</source>
        <translation>重码</translation>
    </message>
    <message>
        <source>Open a text file</source>
        <translation>打开文本文件</translation>
    </message>
    <message>
        <source>Save as {} text</source>
        <translation>保存为 {} 文本</translation>
    </message>
    <message numerus="yes">
        <source>%n time(s) in the text; double-click to choose for the next one</source>
        <translation>
            <numerusform>文中出现 %n 次；双击为下一处改选</numerusform>
        </translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>The encoding of this side&apos;s file, and the one it is saved in. Choosing another reads the file again in it, unless the text was changed: then only saving uses it.</source>
        <translation>这一侧文件的字符编码，也是保存时使用的编码。选择其他编码会按该编码重新读取文件；若文本已改动，则只在保存时使用它。</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>没有最近的文件</translation>
    </message>
    <message numerus="yes">
        <source>%Ln code(s)</source>
        <translation>
            <numerusform>%Ln 个编码</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln shared</source>
        <translation>
            <numerusform>%Ln 个重码</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln unknown</source>
        <translation>
            <numerusform>%Ln 个未知</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CorpusPage</name>
    <message>
        <source>Run comparison</source>
        <translation>开始对比</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Comparison progress</source>
        <translation>比较进度</translation>
    </message>
    <message numerus="yes">
        <source>Done: %Ln line(s)</source>
        <translation>
            <numerusform>完成：%Ln 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln character(s)</source>
        <translation>
            <numerusform>%Ln 个字符</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CorpusPicker</name>
    <message>
        <source>Add files…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Corpus files</source>
        <translation>语料文件</translation>
    </message>
    <message>
        <source>&amp;Encoding:</source>
        <translation>字符编码(&amp;E)：</translation>
    </message>
    <message>
        <source>The encoding the selected files are read in (detected when added); choose another to read them in it</source>
        <translation>读取所选文件所用的字符编码（添加时自动检测）；选择其他编码即按该编码读取</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>DetailPanel</name>
    <message>
        <source>Codes</source>
        <translation>编码</translation>
    </message>
    <message>
        <source>Copy text</source>
        <translation>复制字词</translation>
    </message>
    <message>
        <source>Copy code</source>
        <translation>复制编码</translation>
    </message>
    <message>
        <source>Select a row to see its codes on the keyboard.</source>
        <translation>选择一行，即可在键盘上查看它的编码。</translation>
    </message>
    <message>
        <source>The roots (字根) of the character and their keys</source>
        <translation>字的字根及其所在的键</translation>
    </message>
    <message>
        <source>Also typed by {code}</source>
        <translation>同样用 {code} 打出的</translation>
    </message>
    <message>
        <source>No other entry has the code {code}</source>
        <translation>没有其他字词使用编码 {code}</translation>
    </message>
    <message>
        <source>type {code} then {n}</source>
        <translation>输入 {code} 再按 {n}</translation>
    </message>
    <message>
        <source>selector {n} of {code}</source>
        <translation>{code} 的第 {n} 选</translation>
    </message>
    <message>
        <source>not in the phrase table</source>
        <translation>词库中没有</translation>
    </message>
    <message>
        <source>no Wubi code</source>
        <translation>没有五笔编码</translation>
    </message>
    <message>
        <source>full code</source>
        <translation>全码</translation>
    </message>
    <message>
        <source>other full code</source>
        <translation>另一全码</translation>
    </message>
    <message>
        <source>1-key short code</source>
        <translation>一级简码</translation>
    </message>
    <message>
        <source>2-key short code</source>
        <translation>二级简码</translation>
    </message>
    <message>
        <source>3-key short code</source>
        <translation>三级简码</translation>
    </message>
    <message>
        <source>your phrase&apos;s code</source>
        <translation>自造词编码</translation>
    </message>
    <message>
        <source>selector {n}</source>
        <translation>第 {n} 选</translation>
    </message>
    <message>
        <source>No codes.</source>
        <translation>没有编码。</translation>
    </message>
</context>
<context>
    <name>DoctorDialog</name>
    <message>
        <source>Check this computer</source>
        <translation>检查本机</translation>
    </message>
    <message>
        <source>Checking what each use needs…</source>
        <translation>正在检查各项用途所需的组件…</translation>
    </message>
    <message>
        <source>The check did not run: {error}</source>
        <translation>检查未能运行：{error}</translation>
    </message>
    <message>
        <source>Everything each use needs is here.</source>
        <translation>各项用途所需的组件都已齐备。</translation>
    </message>
    <message>
        <source>Some uses need more: each line says what to install (also: wubitok doctor).</source>
        <translation>部分用途还缺组件：每行写明要安装什么（命令行：wubitok doctor）。</translation>
    </message>
</context>
<context>
    <name>EditMenu</name>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>剪切(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>全选(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <source>P&amp;references…</source>
        <translation>首选项(&amp;R)…</translation>
    </message>
</context>
<context>
    <name>FindDialog</name>
    <message>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Fi&amp;nd:</source>
        <translation>查找(&amp;N)：</translation>
    </message>
    <message>
        <source>Text to find</source>
        <translation>要查找的文字</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>下一个(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous</source>
        <translation>上一个(&amp;P)</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>未找到</translation>
    </message>
</context>
<context>
    <name>ImeEditor</name>
    <message>
        <source>Add a phrase…</source>
        <translation>添加词组…</translation>
    </message>
    <message>
        <source>Add “{text}” as a phrase…</source>
        <translation>将“{text}”添加为词组…</translation>
    </message>
</context>
<context>
    <name>ImePadPane</name>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>A setting is not available</source>
        <translation>有一项设置不可用</translation>
    </message>
    <message>
        <source>Your user database was damaged ({damage}). It is kept as {aside}; learning starts afresh with a new one.</source>
        <translation>用户数据库已损坏（{damage}）。原文件保留为 {aside}；学习记录从新的数据库重新开始。</translation>
    </message>
    <message>
        <source>User database replaced</source>
        <translation>已更换用户数据库</translation>
    </message>
    <message>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <source>Type here with Wubi-86: wqiy vb␣ → 你好</source>
        <translation>在这里用五笔 86 输入：wqiy vb␣ → 你好</translation>
    </message>
    <message>
        <source>Text typed in Wubi</source>
        <translation>用五笔输入的文字</translation>
    </message>
    <message>
        <source>Save as UTF-8 text</source>
        <translation>保存为 UTF-8 文本</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Added {text} as {code}</source>
        <translation>已添加 {text}，编码 {code}</translation>
    </message>
    <message>
        <source>Forget my phrase “{text}”</source>
        <translation>删除我的词组“{text}”</translation>
    </message>
    <message>
        <source>Forget this choice</source>
        <translation>忘记这个选择</translation>
    </message>
    <message>
        <source>Pin to position</source>
        <translation>固定到位置</translation>
    </message>
    <message>
        <source>Forget learned order?</source>
        <translation>清除学习到的字序？</translation>
    </message>
    <message>
        <source>Candidates will be ordered by the dictionary again. Your choices so far are deleted.</source>
        <translation>候选将重新按词典排序，此前记录的选择将被删除。</translation>
    </message>
    <message>
        <source>{n} characters</source>
        <translation>{n} 个字符</translation>
    </message>
    <message>
        <source>中 Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <source>A English</source>
        <translation>英文</translation>
    </message>
    <message>
        <source>Shift switches between Chinese and English</source>
        <translation>Shift 在中文和英文之间切换</translation>
    </message>
    <message>
        <source>Full width</source>
        <translation>全角</translation>
    </message>
    <message>
        <source>Half width</source>
        <translation>半角</translation>
    </message>
    <message>
        <source>，。 Chinese punctuation</source>
        <translation>，。 中文标点</translation>
    </message>
    <message>
        <source>,. English punctuation</source>
        <translation>,. 英文标点</translation>
    </message>
</context>
<context>
    <name>LearningAid</name>
    <message>
        <source>Last entry and its code</source>
        <translation>上一个字词及其编码</translation>
    </message>
    <message>
        <source>Type Wubi codes: space takes the first candidate, 1–9 pick one, - and = turn pages. Start with z to look up by pinyin (zni). Shift switches Chinese/English. Right-click a candidate to forget or pin it; Ctrl+Delete forgets the first one.</source>
        <translation>输入五笔编码：空格选第一个候选，1–9 选对应候选，- 和 = 翻页。以 z 开头可用拼音反查（zni）。Shift 切换中/英文。右键单击候选可忘记或固定它；Ctrl+Delete 忘记第一个候选。</translation>
    </message>
</context>
<context>
    <name>LmChart</name>
    <message>
        <source>Bits per character chart</source>
        <translation>每字符比特图</translation>
    </message>
    <message>
        <source>No result yet</source>
        <translation>尚无结果</translation>
    </message>
    <message>
        <source>Bits per character on the test text (lower is better; whiskers: 95% interval)</source>
        <translation>测试文本的每字符比特数（越低越好；须线：95% 置信区间）</translation>
    </message>
</context>
<context>
    <name>LmPanel</name>
    <message>
        <source>Language-model test: does a tokenizer help a model predict the text?</source>
        <translation>语言模型测试：分词器能否帮助模型预测文本？</translation>
    </message>
    <message>
        <source>Quick</source>
        <translation>快速</translation>
    </message>
    <message>
        <source>300 steps, 64-character windows, the first million characters: minutes</source>
        <translation>300 步、64 字符窗口、前一百万字符：几分钟</translation>
    </message>
    <message>
        <source>Quick language-model test</source>
        <translation>快速语言模型测试</translation>
    </message>
    <message>
        <source>Seeds:</source>
        <translation>随机种子：</translation>
    </message>
    <message>
        <source>Seeds</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Train language models</source>
        <translation>训练语言模型</translation>
    </message>
    <message>
        <source>One small model per tokenizer, the same shape, training characters and steps for each; the last tenth of the corpus is the test text</source>
        <translation>每个分词器训练一个小模型，形状、训练字符和步数都相同；语料的最后十分之一作为测试文本</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancel the language-model test</source>
        <translation>取消语言模型测试</translation>
    </message>
    <message>
        <source>Language-model test progress</source>
        <translation>语言模型测试进度</translation>
    </message>
    <message numerus="yes">
        <source>Done: %Ln test character(s). Held equal: the model&apos;s shape without embeddings, the training characters per step, the steps and the seeds.</source>
        <translation>
            <numerusform>完成：%Ln 个测试字符。保持相同的是：模型除嵌入外的形状、每步训练字符数、步数和随机种子。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LookupPane</name>
    <message>
        <source>你好, wqiy or ni3</source>
        <translation>你好、wqiy 或 ni3</translation>
    </message>
    <message>
        <source>Characters (你好), a Wubi code or prefix (wqiy, wq, z = any key) or pinyin (ni3, zhong)</source>
        <translation>汉字（你好）、五笔编码或前缀（wqiy、wq，z = 任意键）或拼音（ni3、zhong）</translation>
    </message>
    <message>
        <source>Auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Characters</source>
        <translation>汉字</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>编码</translation>
    </message>
    <message>
        <source>Pinyin</source>
        <translation>拼音</translation>
    </message>
    <message>
        <source>What the search text is: guessed, or as chosen here</source>
        <translation>搜索内容的类型：自动判断，或在此指定</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Search as</source>
        <translation>搜索方式</translation>
    </message>
    <message>
        <source>All characters</source>
        <translation>全部汉字</translation>
    </message>
    <message>
        <source>GBK (with traditional)</source>
        <translation>GBK（含繁体）</translation>
    </message>
    <message>
        <source>Simplified (GB2312)</source>
        <translation>简体（GB2312）</translation>
    </message>
    <message>
        <source>Characters listed</source>
        <translation>列出的字符</translation>
    </message>
    <message>
        <source>Which characters a code or a reading lists (characters you type in are always shown); the same setting as Type Wubi&apos;s charset</source>
        <translation>编码或读音列出哪些字（直接输入的汉字总会显示）；与“五笔输入”的字符集是同一个设置</translation>
    </message>
    <message>
        <source>(a Wubi code)</source>
        <translation>（五笔编码）</translation>
    </message>
    <message>
        <source>(characters)</source>
        <translation>（汉字）</translation>
    </message>
    <message>
        <source>(pinyin)</source>
        <translation>（拼音）</translation>
    </message>
    <message>
        <source>Look up a character, a Wubi code or a pinyin reading</source>
        <translation>查汉字、五笔编码或拼音</translation>
    </message>
    <message>
        <source>Try:</source>
        <translation>试试：</translation>
    </message>
    <message>
        <source>Examples to search</source>
        <translation>查询示例</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Type to search; results appear as you type.</source>
        <translation>输入即可搜索，结果随输入显示。</translation>
    </message>
    <message>
        <source>Understood as characters</source>
        <translation>识别为汉字</translation>
    </message>
    <message>
        <source>Understood as a Wubi code: &lt;b&gt;{code}&lt;/b&gt;</source>
        <translation>识别为五笔编码：&lt;b&gt;{code}&lt;/b&gt;</translation>
    </message>
    <message>
        <source> (z = any key)</source>
        <translation>（z = 任意键）</translation>
    </message>
    <message>
        <source>search as pinyin</source>
        <translation>按拼音查</translation>
    </message>
    <message>
        <source>Understood as pinyin: &lt;b&gt;{pinyin}&lt;/b&gt;</source>
        <translation>识别为拼音：&lt;b&gt;{pinyin}&lt;/b&gt;</translation>
    </message>
    <message>
        <source> (z + pinyin, as in the typing pad)</source>
        <translation>（z + 拼音，与输入板相同）</translation>
    </message>
    <message>
        <source>A Wubi code is 1–4 letters a–y (z = any key).</source>
        <translation>五笔编码是 1–4 个字母 a–y（z = 任意键）。</translation>
    </message>
    <message>
        <source>Not a pinyin syllable (for example ni, ni3, nǐ, lv4).</source>
        <translation>不是拼音音节（例如 ni、ni3、nǐ、lv4）。</translation>
    </message>
    <message>
        <source>One code or pinyin syllable at a time.</source>
        <translation>一次只能查一个编码或拼音音节。</translation>
    </message>
    <message>
        <source>Neither a Wubi code (at most 4 keys) nor a pinyin syllable.</source>
        <translation>既不是五笔编码（最多 4 键），也不是拼音音节。</translation>
    </message>
    <message numerus="yes">
        <source>first %Ln result(s)</source>
        <translation>
            <numerusform>前 %Ln 条结果</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln result(s)</source>
        <translation>
            <numerusform>%Ln 条结果</numerusform>
        </translation>
    </message>
    <message>
        <source>in the order typed</source>
        <translation>按输入顺序</translation>
    </message>
    <message>
        <source>the code&apos;s entries first, then by frequency</source>
        <translation>先列该编码的字词，再按频率</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>This pane could not be loaded; this is a bug in wubitok.</source>
        <translation>无法加载此面板；这是 wubitok 的程序缺陷。</translation>
    </message>
    <message>
        <source>Lookup</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>Convert</source>
        <translation>转换</translation>
    </message>
    <message>
        <source>Tokenize</source>
        <translation>分词</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Type Wubi</source>
        <translation>五笔输入</translation>
    </message>
    <message>
        <source>Root chart</source>
        <translation>字根表</translation>
    </message>
    <message>
        <source>Practice</source>
        <translation>跟打练习</translation>
    </message>
    <message>
        <source>wubitok — Wubi dictionary, typing and tokenizers</source>
        <translation>wubitok — 五笔词典、输入与分词器</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation>保存(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Go to the &amp;input box</source>
        <translation>转到输入框(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Check this computer…</source>
        <translation>检查本机(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;About wubitok</source>
        <translation>关于 wubitok(&amp;A)</translation>
    </message>
    <message>
        <source>Panes</source>
        <translation>面板</translation>
    </message>
    <message>
        <source>&lt;h3&gt;wubitok {version}&lt;/h3&gt;&lt;p&gt;Wubi-86 dictionary, typing pad and Wubi-BPE tokenizers, with BPE, WordPiece and Unigram to compare — offline.&lt;/p&gt;&lt;p&gt;Dictionary from ibus-table-wubi (Debian). Bundled fonts: Droid Sans Fallback (Google, Apache-2.0) for Han characters; a subset of HanaMinB (GlyphWiki Project, Hanazono Font License) for CJK Extension B. Character frequencies for telling GB18030 from Big5 files: Rime&apos;s essay (rime-essay, Debian; LGPL-3).&lt;/p&gt;</source>
        <translation>&lt;h3&gt;wubitok {version}&lt;/h3&gt;&lt;p&gt;五笔 86 词典、输入板与五笔 BPE 分词器，并可与 BPE、WordPiece、Unigram 对比——完全离线。&lt;/p&gt;&lt;p&gt;词典来自 ibus-table-wubi（Debian）。内置字体：Droid Sans Fallback（Google，Apache-2.0），用于汉字；HanaMinB 的子集（GlyphWiki Project，Hanazono Font License），用于 CJK 扩展 B 区。区分 GB18030 与 Big5 文件所用的字频：Rime 的 essay 词表（rime-essay，Debian；LGPL-3）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About wubitok</source>
        <translation>关于 wubitok</translation>
    </message>
    <message>
        <source>Quit wubitok?</source>
        <translation>退出 wubitok？</translation>
    </message>
    <message>
        <source>A job is still running in: {panes}. Quit and cancel it?</source>
        <translation>以下面板仍有任务在运行：{panes}。要退出并取消任务吗？</translation>
    </message>
</context>
<context>
    <name>MetricsTable</name>
    <message>
        <source>tokenizer</source>
        <translation>分词器</translation>
    </message>
    <message>
        <source>The tokenizer (its colour in the charts and views)</source>
        <translation>分词器（颜色与图表和词元视图一致）</translation>
    </message>
    <message>
        <source>kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Kind of model: wubi-bpe, bpe, wordpiece, unigram</source>
        <translation>模型类型：wubi-bpe、bpe、wordpiece、unigram</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元数</translation>
    </message>
    <message>
        <source>Tokens the text was cut into</source>
        <translation>文本被切分成的词元数</translation>
    </message>
    <message>
        <source>chars/tok</source>
        <translation>字符/词元</translation>
    </message>
    <message>
        <source>Characters per token: higher is a more compact encoding</source>
        <translation>每个词元的字符数：越高编码越紧凑</translation>
    </message>
    <message>
        <source>bytes/tok</source>
        <translation>字节/词元</translation>
    </message>
    <message>
        <source>UTF-8 bytes per token</source>
        <translation>每个词元的 UTF-8 字节数</translation>
    </message>
    <message>
        <source>tok/Han</source>
        <translation>词元/汉字</translation>
    </message>
    <message>
        <source>Tokens per Han character of the text</source>
        <translation>文本中每个汉字所用的词元数</translation>
    </message>
    <message>
        <source>unk</source>
        <translation>未知率</translation>
    </message>
    <message>
        <source>Share of unknown tokens: text the vocabulary cannot spell</source>
        <translation>未知词元的比例：词表无法表示的文本</translation>
    </message>
    <message>
        <source>round-trip</source>
        <translation>往返</translation>
    </message>
    <message>
        <source>Share of samples that decode back to exactly the same text. A sample is the whole text; in corpus mode each file (a long file in parts of about {} million characters)</source>
        <translation>解码后与原文完全相同的样本所占比例。样本即整段文本；语料模式下为每个文件（长文件按约 {} 百万字符分段）</translation>
    </message>
    <message>
        <source>vocab</source>
        <translation>词表</translation>
    </message>
    <message>
        <source>Vocabulary size</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>used</source>
        <translation>已用</translation>
    </message>
    <message>
        <source>Distinct vocabulary entries the text used</source>
        <translation>文本用到的不同词表条目数</translation>
    </message>
    <message>
        <source>Rényi(2.5)</source>
        <translation>Rényi(2.5)</translation>
    </message>
    <message>
        <source>Rényi efficiency (α = 2.5) of the token distribution, 0 to 1: higher uses the vocabulary more evenly</source>
        <translation>词元分布的 Rényi 效率（α = 2.5），0 到 1：越高词表用得越均匀</translation>
    </message>
    <message>
        <source>MB/s</source>
        <translation>MB/秒</translation>
    </message>
    <message>
        <source>Encoding speed, megabytes of UTF-8 per second; — under {} KB of text, too little to time</source>
        <translation>编码速度，每秒 UTF-8 兆字节；文本不足 {} KB 时显示 —，太短无法计时</translation>
    </message>
    <message>
        <source>train s</source>
        <translation>训练秒数</translation>
    </message>
    <message>
        <source>Training time in seconds</source>
        <translation>训练用时（秒）</translation>
    </message>
    <message>
        <source>Not measured: the text has {n:,} bytes. Under {min} KB the time is mostly the fixed cost of a call and changes from run to run; compare on corpus files to measure speed.</source>
        <translation>未测量：文本只有 {n:,} 字节。不足 {min} KB 时，耗时主要是每次调用的固定开销，每次运行都不同；请在语料文件上对比以测量速度。</translation>
    </message>
    <message>
        <source>WordPiece is lossy by design: decoding puts one space between words, so the original spaces and line breaks are lost, and so are upper case, accents and the words it cannot spell ([UNK]).</source>
        <translation>WordPiece 按设计是有损的：解码时在词之间放一个空格，因此原文的空格和换行会丢失，大写字母、重音符号以及它拼不出的词（[UNK]）也会丢失。</translation>
    </message>
    <message>
        <source>{n} of {m} samples did not decode back to the same text</source>
        <translation>{m} 个样本中有 {n} 个解码后与原文不同</translation>
    </message>
    <message>
        <source>{n:,} unknown tokens: text this vocabulary cannot spell, lost when decoding</source>
        <translation>{n:,} 个未知词元：此词表拼不出的文本，解码时丢失</translation>
    </message>
    <message>
        <source>The text has no Han characters</source>
        <translation>文本中没有汉字</translation>
    </message>
</context>
<context>
    <name>ModelCatalog</name>
    <message>
        <source> (trained)</source>
        <translation>（已训练）</translation>
    </message>
    <message>
        <source> (file)</source>
        <translation>（文件）</translation>
    </message>
    <message>
        <source> (broken)</source>
        <translation>（已损坏）</translation>
    </message>
</context>
<context>
    <name>OptionsMenu</name>
    <message>
        <source>Needs {what}</source>
        <translation>需要 {what}</translation>
    </message>
    <message>
        <source>Add a phrase…</source>
        <translation>添加词组…</translation>
    </message>
    <message>
        <source>Forget learned order…</source>
        <translation>清除学习到的字序…</translation>
    </message>
</context>
<context>
    <name>PhraseDialog</name>
    <message>
        <source>Add a phrase</source>
        <translation>添加词组</translation>
    </message>
    <message>
        <source>Phrase:</source>
        <translation>词组：</translation>
    </message>
    <message>
        <source>Code:</source>
        <translation>编码：</translation>
    </message>
    <message>
        <source>Leave the code empty for the standard Wubi phrase code; the phrase is then typed with it like any other.</source>
        <translation>编码留空则使用标准五笔词组编码；之后即可像其他词组一样用它输入。</translation>
    </message>
    <message>
        <source>1–4 keys a–y</source>
        <translation>1–4 个键，a–y</translation>
    </message>
    <message>
        <source>{code} (standard)</source>
        <translation>{code}（标准编码）</translation>
    </message>
</context>
<context>
    <name>PracticePane</name>
    <message>
        <source>Open a text to practise</source>
        <translation>打开要练习的文本</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Choose a lesson, or paste a text to practise.</source>
        <translation>选择一课，或粘贴一段文本来练习。</translation>
    </message>
    <message>
        <source>Lesson: {done} of {all} typed, next {char}</source>
        <translation>课文：已打 {done}/{all}，下一个 {char}</translation>
    </message>
    <message>
        <source>Type here (F1: hint)</source>
        <translation>在这里打字（F1：提示）</translation>
    </message>
    <message>
        <source>Practice input: {keys}</source>
        <translation>练习输入：{keys}</translation>
    </message>
    <message>
        <source>{speed} chars/min · 击键 {kps} keys/s · 码长 {kpc} · accuracy {acc}%</source>
        <translation>速度 {speed} 字/分 · 击键 {kps} 次/秒 · 码长 {kpc} · 正确率 {acc}%</translation>
    </message>
    <message>
        <source>Missed most: {chars}</source>
        <translation>错得最多：{chars}</translation>
    </message>
    <message numerus="yes">
        <source>%n session(s); the last {speed} chars/min</source>
        <translation>
            <numerusform>共 %n 次练习；最近一次 {speed} 字/分</numerusform>
        </translation>
    </message>
    <message>
        <source>No sessions yet: finish a lesson and your speed shows here</source>
        <translation>还没有练习记录：练完一课，速度就显示在这里</translation>
    </message>
    <message>
        <source>Roots: area 1 横 (G F D S A)</source>
        <translation>字根：第 1 区 横（G F D S A）</translation>
    </message>
    <message>
        <source>Roots: area 2 竖 (H J K L M)</source>
        <translation>字根：第 2 区 竖（H J K L M）</translation>
    </message>
    <message>
        <source>Roots: area 3 撇 (T R E W Q)</source>
        <translation>字根：第 3 区 撇（T R E W Q）</translation>
    </message>
    <message>
        <source>Roots: area 4 捺 (Y U I O P)</source>
        <translation>字根：第 4 区 捺（Y U I O P）</translation>
    </message>
    <message>
        <source>Roots: area 5 折 (N B V C X)</source>
        <translation>字根：第 5 区 折（N B V C X）</translation>
    </message>
    <message>
        <source>一级简码: 25 characters</source>
        <translation>一级简码：25 个字</translation>
    </message>
    <message>
        <source>二级简码: the most used</source>
        <translation>二级简码：最常用的</translation>
    </message>
    <message>
        <source>Most used characters</source>
        <translation>常用字</translation>
    </message>
    <message>
        <source>Most used phrases</source>
        <translation>常用词</translation>
    </message>
    <message>
        <source>Your text (paste or File &gt; Open)</source>
        <translation>自选文本（粘贴或 文件 &gt; 打开）</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Paste a text to practise, then Enter</source>
        <translation>粘贴要练习的文本，然后按回车</translation>
    </message>
    <message>
        <source>Text to practise</source>
        <translation>要练习的文本</translation>
    </message>
    <message>
        <source>Restart</source>
        <translation>重新开始</translation>
    </message>
    <message>
        <source>Hint (F1)</source>
        <translation>提示（F1）</translation>
    </message>
    <message>
        <source>Show the next character&apos;s code and split</source>
        <translation>显示下一个字的编码和拆分</translation>
    </message>
    <message>
        <source>Your speed across sessions (characters per minute)</source>
        <translation>各次练习的速度（字/分）</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Typing (Type Wubi, wubitok type and the IBus engine)</source>
        <translation>输入（五笔输入、wubitok type 和 IBus 引擎）</translation>
    </message>
    <message>
        <source>Characters</source>
        <translation>字符集</translation>
    </message>
    <message>
        <source>{setting}:</source>
        <translation>{setting}：</translation>
    </message>
</context>
<context>
    <name>ReadableToken</name>
    <message>
        <source>{char} ({k} of {n})</source>
        <translation>{char}（{k}/{n}）</translation>
    </message>
    <message>
        <source>{token} for {text}</source>
        <translation>{token}（代 {text}）</translation>
    </message>
    <message>
        <source>Bytes that are part of a character: {chars} is {hex} in UTF-8</source>
        <translation>字符的一部分字节：{chars} 的 UTF-8 编码是 {hex}</translation>
    </message>
    <message>
        <source>Piece {k} of the {n} tokens that together spell {char}</source>
        <translation>合起来拼出 {char} 的 {n} 个词元中的第 {k} 个</translation>
    </message>
</context>
<context>
    <name>ResultsModel</name>
    <message>
        <source>Text</source>
        <translation>字词</translation>
    </message>
    <message>
        <source>Full code</source>
        <translation>全码</translation>
    </message>
    <message>
        <source>Short codes</source>
        <translation>简码</translation>
    </message>
    <message>
        <source>Pinyin</source>
        <translation>拼音</translation>
    </message>
    <message>
        <source>Frequency</source>
        <translation>频率</translation>
    </message>
    <message>
        <source>Selector</source>
        <translation>选字号</translation>
    </message>
    <message>
        <source>The character or phrase</source>
        <translation>汉字或词语</translation>
    </message>
    <message>
        <source>The full Wubi code (the phrase code for a phrase)</source>
        <translation>五笔全码（词语为词组编码）</translation>
    </message>
    <message>
        <source>Shorter codes that also type it</source>
        <translation>也能打出它的简码</translation>
    </message>
    <message>
        <source>Readings</source>
        <translation>读音</translation>
    </message>
    <message>
        <source>How common it is (the dictionary&apos;s weight)</source>
        <translation>常用程度（词典中的权重）</translation>
    </message>
    <message>
        <source>Its number among the entries sharing its full code (1 = space bar)</source>
        <translation>在同码字词中的序号（1 = 空格键）</translation>
    </message>
    <message>
        <source>Your own phrase, typed by {code}</source>
        <translation>你的自造词，编码 {code}</translation>
    </message>
    <message>
        <source>Not in the phrase table; the code is computed by the Wubi-86 rules</source>
        <translation>词库中没有此词；编码按五笔 86 规则计算</translation>
    </message>
    <message>
        <source>Not in the dictionary</source>
        <translation>词典中没有</translation>
    </message>
    <message>
        <source>user</source>
        <translation>用户词</translation>
    </message>
</context>
<context>
    <name>RootChartPane</name>
    <message>
        <source>Type a root, a key letter or a character; click a root to see the characters that use it.</source>
        <translation>输入字根、键位字母或汉字；点击字根可查看用到它的汉字。</translation>
    </message>
    <message>
        <source>On {keys}</source>
        <translation>在 {keys} 键</translation>
    </message>
    <message>
        <source>{text} is no root, key or character with a verified split</source>
        <translation>{text} 不是字根或键位，也没有经过验证的拆分</translation>
    </message>
    <message>
        <source>Characters with {root} (key {key})</source>
        <translation>含 {root} 的字（{key} 键）</translation>
    </message>
    <message>
        <source>No verified split uses this root.</source>
        <translation>没有经过验证的拆分用到这个字根。</translation>
    </message>
    <message>
        <source>Find a root, a key or a character: 钅, q, 键</source>
        <translation>查找字根、键位或汉字：钅、q、键</translation>
    </message>
    <message>
        <source>Find in the root chart</source>
        <translation>在字根表中查找</translation>
    </message>
    <message>
        <source>{n} {stroke}</source>
        <translation>{n} {stroke}</translation>
    </message>
    <message>
        <source>Root {root} on key {key}</source>
        <translation>字根 {root}，在 {key} 键</translation>
    </message>
    <message>
        <source>Characters with a root</source>
        <translation>含某字根的字</translation>
    </message>
    <message>
        <source>Click a root to list the characters whose split uses it.</source>
        <translation>点击字根，列出拆分中用到它的汉字。</translation>
    </message>
</context>
<context>
    <name>RunsOneJob</name>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Failed: {}</source>
        <translation>失败：{}</translation>
    </message>
</context>
<context>
    <name>SplitRow</name>
    <message>
        <source>No verified split for {char}: none of the derived ones gives its code.</source>
        <translation>{char} 没有经过验证的拆分：推导出的拆分都得不到它的编码。</translation>
    </message>
    <message>
        <source>key name (键名字): its key four times</source>
        <translation>键名字：连击本键四次</translation>
    </message>
    <message>
        <source>a root that is a character (成字字根): its key, then its strokes</source>
        <translation>成字字根：先打本键，再打它的笔画</translation>
    </message>
    <message>
        <source>fewer than four roots: the last key is the 末笔识别码 ({stroke}, {structure})</source>
        <translation>不足四个字根：最后一键是末笔识别码（{stroke}，{structure}）</translation>
    </message>
    <message>
        <source>all roots: {roots}; the code takes the first three and the last</source>
        <translation>全部字根：{roots}；取前三个和最后一个</translation>
    </message>
    <message>
        <source>Split of {char}: {parts}</source>
        <translation>{char} 的拆分：{parts}</translation>
    </message>
</context>
<context>
    <name>TokenColumn</name>
    <message>
        <source>trained by {}</source>
        <translation>由 {} 训练</translation>
    </message>
    <message>
        <source>Tokens of {}</source>
        <translation>{} 的词元</translation>
    </message>
</context>
<context>
    <name>TokenTableModel</name>
    <message>
        <source>id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Wubi</source>
        <translation>五笔</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>spelling</source>
        <translation>拼写</translation>
    </message>
    <message>
        <source>offsets</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Position of the token in the text</source>
        <translation>词元在文本中的序号</translation>
    </message>
    <message>
        <source>Token id in the vocabulary</source>
        <translation>词元在词表中的 ID</translation>
    </message>
    <message>
        <source>The text the token covers, as you read it (see the legend under the table)</source>
        <translation>词元覆盖的文字，按人读的样子显示（见表下的图例）</translation>
    </message>
    <message>
        <source>The token as the tokenizer spells it inside: Wubi-BPE&apos;s keys, byte-level BPE&apos;s byte letters (Ġ is a space), WordPiece&apos;s ## for a word&apos;s continuation</source>
        <translation>分词器内部对词元的拼写：Wubi-BPE 的键位、字节级 BPE 的字节字母（Ġ 是空格）、WordPiece 用 ## 表示词的后续部分</translation>
    </message>
    <message>
        <source>Full Wubi codes of the Han characters the token covers</source>
        <translation>词元所含汉字的五笔全码</translation>
    </message>
    <message>
        <source>UTF-8 bytes of the text the token covers (a partial token: of its whole character)</source>
        <translation>词元覆盖文本的 UTF-8 字节数（部分字符词元：按整个字符计）</translation>
    </message>
    <message>
        <source>Start and end of the token in the text, in characters</source>
        <translation>词元在文本中的起止位置（按字符计）</translation>
    </message>
    <message>
        <source>Spelled by the tokenizer: {}</source>
        <translation>分词器的拼写：{}</translation>
    </message>
    <message>
        <source>part of a character</source>
        <translation>字符的一部分</translation>
    </message>
</context>
<context>
    <name>TokenTextView</name>
    <message>
        <source>id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>spelled</source>
        <translation>拼写</translation>
    </message>
    <message>
        <source>Wubi</source>
        <translation>五笔</translation>
    </message>
    <message>
        <source>part of a character</source>
        <translation>字符的一部分</translation>
    </message>
    <message>
        <source>not covered by any token</source>
        <translation>没有词元覆盖</translation>
    </message>
</context>
<context>
    <name>TokenizePane</name>
    <message>
        <source>Tokenizer: bundled models, models you trained and files you opened</source>
        <translation>分词器：内置模型、你训练的模型以及打开的文件</translation>
    </message>
    <message>
        <source>Open model…</source>
        <translation>打开模型…</translation>
    </message>
    <message>
        <source>Open text…</source>
        <translation>打开文本…</translation>
    </message>
    <message>
        <source>Show whitespace</source>
        <translation>显示空白字符</translation>
    </message>
    <message>
        <source>Alternate colours</source>
        <translation>交替着色</translation>
    </message>
    <message>
        <source>Colour by token id</source>
        <translation>按词元 ID 着色</translation>
    </message>
    <message>
        <source>&amp;Tokenizer:</source>
        <translation>分词器(&amp;T)：</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Take this model file off the list (the file stays)</source>
        <translation>从列表中移除此模型文件（文件本身保留）</translation>
    </message>
    <message>
        <source>Spellings: Wubi keys as typed, · between characters (wqiy·w#2); #2 is the number that tells apart characters typed with the same keys</source>
        <translation>拼写：按键入顺序的五笔键，字与字之间用 · 隔开（wqiy·w#2）；#2 是区分同键各字的序号</translation>
    </message>
    <message>
        <source>Token colours</source>
        <translation>词元颜色</translation>
    </message>
    <message>
        <source>Type or paste text here, or open a file</source>
        <translation>在此输入或粘贴文本，或打开文件</translation>
    </message>
    <message>
        <source>Text to tokenize</source>
        <translation>要分词的文本</translation>
    </message>
    <message>
        <source>Close file</source>
        <translation>关闭文件</translation>
    </message>
    <message>
        <source>&amp;Encoding:</source>
        <translation>字符编码(&amp;E)：</translation>
    </message>
    <message>
        <source>Tokens over the text</source>
        <translation>文本上的词元</translation>
    </message>
    <message>
        <source>Token table</source>
        <translation>词元表</translation>
    </message>
    <message>
        <source>Token ids</source>
        <translation>词元 ID</translation>
    </message>
    <message>
        <source>Copy ids</source>
        <translation>复制 ID</translation>
    </message>
    <message>
        <source>Copy all token ids as a list: [12, 345, …]</source>
        <translation>把全部词元 ID 复制为列表：[12, 345, …]</translation>
    </message>
    <message>
        <source>Export table…</source>
        <translation>导出表格…</translation>
    </message>
    <message>
        <source>Save the token table as CSV or JSON (also File &gt; Save)</source>
        <translation>把词元表保存为 CSV 或 JSON（也可用“文件 &gt; 保存”）</translation>
    </message>
    <message>
        <source>Loading {}…</source>
        <translation>正在加载 {}…</translation>
    </message>
    <message>
        <source>Export the token table</source>
        <translation>导出词元表</translation>
    </message>
    <message>
        <source>Exporting the token table…</source>
        <translation>正在导出词元表…</translation>
    </message>
    <message>
        <source>Saved {}</source>
        <translation>已保存 {}</translation>
    </message>
    <message>
        <source>{name}: showing the first {shown:,} of {total:,} characters, read-only; the tokens and counts cover the whole file.</source>
        <translation>{name}：仅显示 {total:,} 个字符中的前 {shown:,} 个，只读；词元和统计涵盖整个文件。</translation>
    </message>
    <message>
        <source>Open tokenizer model</source>
        <translation>打开分词器模型</translation>
    </message>
    <message>
        <source>Tokenizer models (*.json *.model *.tiktoken);;All files (*)</source>
        <translation>分词器模型 (*.json *.model *.tiktoken);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open text</source>
        <translation>打开文本</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>No tokenizer available: open a model file or train one.</source>
        <translation>没有可用的分词器：请打开模型文件或训练一个。</translation>
    </message>
    <message>
        <source>This model could not be loaded: {}</source>
        <translation>无法加载此模型：{}</translation>
    </message>
    <message>
        <source>Tokenizing…</source>
        <translation>正在分词…</translation>
    </message>
    <message>
        <source>Could not tokenize: {}</source>
        <translation>无法分词：{}</translation>
    </message>
    <message numerus="yes">
        <source>%Ln token(s)</source>
        <translation>
            <numerusform>%Ln 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln character(s)</source>
        <translation>
            <numerusform>%Ln 个字符</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>showing the first %Ln character(s)</source>
        <translation>
            <numerusform>只显示前 %Ln 个字符</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>token(s)</source>
        <translation>
            <numerusform>个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %n id(s)</source>
        <translation>
            <numerusform>已复制 %n 个 ID</numerusform>
        </translation>
    </message>
    <message>
        <source>{:.2f} characters per token</source>
        <translation>每词元 {:.2f} 个字符</translation>
    </message>
    <message>
        <source>Spellings</source>
        <translation>拼写</translation>
    </message>
    <message>
        <source>Show the tokenizer&apos;s own spelling of each token (Wubi keys, byte letters) and the Wubi codes of its Han characters in the table</source>
        <translation>在表中显示分词器对每个词元的拼写（五笔键位、字节字母）及其汉字的五笔编码</translation>
    </message>
    <message>
        <source>Tokens as you read them: ␣ space · ↵ line break · ⇥ tab · 民 (1 of 2): first of two tokens that spell 民 · &lt;E6 97&gt;: bytes of part of a character · hover a token for its spelling</source>
        <translation>词元按阅读的样子显示：␣ 空格 · ↵ 换行 · ⇥ 制表符 · 民（1/2）：拼出“民”的两个词元中的第一个 · &lt;E6 97&gt;：字符的一部分字节 · 鼠标悬停可见其拼写</translation>
    </message>
    <message>
        <source>The encoding the file was read in (detected); choose another to read the file again in it (until the text is edited)</source>
        <translation>读取该文件所用的字符编码（自动检测）；选择其他编码即按该编码重新读取文件（文本改动前有效）</translation>
    </message>
    <message>
        <source>vocabulary {:,}</source>
        <translation>词表 {:,}</translation>
    </message>
    <message>
        <source>{:,} partial-character tokens</source>
        <translation>{:,} 个半字词元</translation>
    </message>
    <message>
        <source>round trip exact</source>
        <translation>往返无损</translation>
    </message>
    <message>
        <source>round trip lossy</source>
        <translation>往返有损</translation>
    </message>
    <message>
        <source>trained by {}</source>
        <translation>由 {} 训练</translation>
    </message>
    <message>
        <source>token #{} · id {} · {}</source>
        <translation>词元 #{} · ID {} · {}</translation>
    </message>
</context>
<context>
    <name>TrainPane</name>
    <message>
        <source>the model&apos;s defaults (space-separated, e.g. &lt;s&gt; &lt;/s&gt;)</source>
        <translation>模型默认值（以空格分隔，如 &lt;s&gt; &lt;/s&gt;）</translation>
    </message>
    <message>
        <source>wubitok (pure Python)</source>
        <translation>wubitok（纯 Python）</translation>
    </message>
    <message>
        <source>Fast (Hugging Face tokenizers / SentencePiece)</source>
        <translation>快速（Hugging Face tokenizers / SentencePiece）</translation>
    </message>
    <message>
        <source>Shortest code + index</source>
        <translation>最短编码 + 序号</translation>
    </message>
    <message>
        <source>Full code + index</source>
        <translation>全码 + 序号</translation>
    </message>
    <message>
        <source>How Wubi-BPE spells each Chinese character in Wubi keys</source>
        <translation>Wubi-BPE 用哪种五笔键码拼写每个汉字</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>added to the file names, e.g. my-corpus</source>
        <translation>附加到文件名中，例如 my-corpus</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Algorithms:</source>
        <translation>算法：</translation>
    </message>
    <message>
        <source>Vocabulary size:</source>
        <translation>词表大小：</translation>
    </message>
    <message>
        <source>Minimum frequency:</source>
        <translation>最低频次：</translation>
    </message>
    <message>
        <source>Special tokens:</source>
        <translation>特殊词元：</translation>
    </message>
    <message>
        <source>Trainer:</source>
        <translation>训练器：</translation>
    </message>
    <message>
        <source>Wubi spelling:</source>
        <translation>五笔拼写：</translation>
    </message>
    <message>
        <source>Save to folder:</source>
        <translation>保存到文件夹：</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>No files yet.</source>
        <translation>尚未添加文件。</translation>
    </message>
    <message>
        <source>Corpus (text files)</source>
        <translation>语料（文本文件）</translation>
    </message>
    <message>
        <source>Automatic (fast for Wubi-BPE and BPE; others over {} MB)</source>
        <translation>自动（Wubi-BPE 和 BPE 用快速库；其他语料超过 {} MB 时）</translation>
    </message>
    <message>
        <source>Automatic: Wubi-BPE and BPE train with Hugging Face tokenizers at any corpus size, since both trainers give the same merges and the fast one takes about half the time; WordPiece and Unigram use the fast libraries for corpora over {} MB, the pure-Python trainers below that.</source>
        <translation>自动：Wubi-BPE 和 BPE 不论语料大小都用 Hugging Face tokenizers 训练，因为两种训练器得到相同的合并，快速的只需约一半时间；WordPiece 和 Unigram 在语料超过 {} MB 时用快速库，否则用纯 Python 训练器。</translation>
    </message>
    <message>
        <source>Cheapest code per character + index (best measured)</source>
        <translation>每字取最省的编码 + 序号（实测最佳）</translation>
    </message>
    <message>
        <source>Code prefix + index</source>
        <translation>编码前缀 + 序号</translation>
    </message>
    <message>
        <source>Joined: a run of letters keeps the punctuation after it (best measured)</source>
        <translation>连接：一串字母连同其后的标点（实测最佳）</translation>
    </message>
    <message>
        <source>Clause: each run of Chinese characters alone (models made before)</source>
        <translation>分句：每串汉字单独切分（旧模型的切法）</translation>
    </message>
    <message>
        <source>How Wubi-BPE cuts the text into pieces before merging</source>
        <translation>五笔 BPE 在合并之前如何把文本切成片段</translation>
    </message>
    <message>
        <source>Wubi pre-tokens:</source>
        <translation>五笔预切分：</translation>
    </message>
    <message>
        <source>Byte-level BPE</source>
        <translation>字节级 BPE</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s), {:.1f} MB</source>
        <translation>
            <numerusform>%n 个文件，{:.1f} MB</numerusform>
        </translation>
    </message>
    <message>
        <source>Add corpus files first</source>
        <translation>请先添加语料文件</translation>
    </message>
    <message>
        <source>Save models in</source>
        <translation>模型保存位置</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Large corpus: training with the fast libraries.</source>
        <translation>语料较大：使用快速库训练。</translation>
    </message>
    <message>
        <source>Training…</source>
        <translation>正在训练…</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>phase {n}: {stage}</source>
        <translation>第 {n} 阶段：{stage}</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>saved {} · vocabulary {:,} · {:.1f} s · {:,} KB</source>
        <translation>已保存 {} · 词表 {:,} · {:.1f} 秒 · {:,} KB</translation>
    </message>
    <message>
        <source>trained by {}</source>
        <translation>由 {} 训练</translation>
    </message>
    <message>
        <source>larger than the {:,} asked: the trainer keeps every character of the corpus (its alphabet) whatever the size asked</source>
        <translation>比要求的 {:,} 大：无论要求多大，训练器都保留语料中的每个字符（字母表）</translation>
    </message>
    <message>
        <source>smaller than the {:,} asked: this corpus has no more pieces worth keeping</source>
        <translation>比要求的 {:,} 小：此语料没有更多值得保留的片段</translation>
    </message>
    <message>
        <source>smaller than the {asked:,} asked: no pair left occurs {n} times or more in this corpus (the minimum frequency)</source>
        <translation>比要求的 {asked:,} 小：此语料中剩下的组合都出现不到 {n} 次（最低频率）</translation>
    </message>
    <message>
        <source>failed: {}</source>
        <translation>失败：{}</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Saved in {}: {}</source>
        <translation>已保存到 {}：{}</translation>
    </message>
    <message>
        <source>Stopped; no model saved.</source>
        <translation>已停止；未保存模型。</translation>
    </message>
</context>
<context>
    <name>TypingSettings</name>
    <message>
        <source>Candidates per page</source>
        <translation>每页候选数</translation>
    </message>
    <message>
        <source>Commit a 4-key code with a single candidate at once</source>
        <translation>四码唯一时自动上屏</translation>
    </message>
    <message>
        <source>A 5th key commits the first candidate (顶字)</source>
        <translation>第 5 键自动上屏首选（顶字）</translation>
    </message>
    <message>
        <source>A code with no candidates, on Space</source>
        <translation>空码时按空格</translation>
    </message>
    <message>
        <source>Learn my choices (most used first)</source>
        <translation>记住我的选择（常用的排在前面）</translation>
    </message>
    <message>
        <source>Simplified characters first</source>
        <translation>简体字优先</translation>
    </message>
    <message>
        <source>Output script</source>
        <translation>输出字形</translation>
    </message>
    <message>
        <source>Clear it</source>
        <translation>清除编码</translation>
    </message>
    <message>
        <source>Keep it</source>
        <translation>保留编码</translation>
    </message>
    <message>
        <source>Keep it and beep</source>
        <translation>保留编码并提示</translation>
    </message>
    <message>
        <source>All characters (incl. CJK Ext B)</source>
        <translation>全部汉字（含 CJK 扩展 B）</translation>
    </message>
    <message>
        <source>GBK (simplified and traditional)</source>
        <translation>GBK（简体和繁体）</translation>
    </message>
    <message>
        <source>Simplified only (GB2312)</source>
        <translation>仅简体（GB2312）</translation>
    </message>
    <message>
        <source>As typed</source>
        <translation>按原样</translation>
    </message>
    <message>
        <source>Simplified</source>
        <translation>简体</translation>
    </message>
    <message>
        <source>Traditional</source>
        <translation>繁体</translation>
    </message>
    <message>
        <source>Traditional (Taiwan)</source>
        <translation>繁体（台湾）</translation>
    </message>
    <message>
        <source>Traditional (Hong Kong)</source>
        <translation>繁体（香港）</translation>
    </message>
    <message>
        <source>{choice} (needs {part})</source>
        <translation>{choice}（需要 {part}）</translation>
    </message>
</context>
<context>
    <name>WubiKeyboard</name>
    <message>
        <source>any
key</source>
        <translation>任意
键</translation>
    </message>
</context>
<context>
    <name>_Slot</name>
    <message>
        <source>Remove this tokenizer</source>
        <translation>移除此分词器</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>分词器</translation>
    </message>
</context>
<context>
    <name>errors</name>
    <message>
        <source>File problem</source>
        <translation>文件问题</translation>
    </message>
    <message>
        <source>Model problem</source>
        <translation>模型问题</translation>
    </message>
    <message>
        <source>Unknown code</source>
        <translation>未知编码</translation>
    </message>
    <message>
        <source>Dictionary problem</source>
        <translation>词典问题</translation>
    </message>
    <message>
        <source>Package needed</source>
        <translation>需要安装软件包</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Invalid input</source>
        <translation>输入无效</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>{path}: no such file</source>
        <translation>{path}：文件不存在</translation>
    </message>
    <message>
        <source>{path}: is a folder, not a file</source>
        <translation>{path}：这是文件夹，不是文件</translation>
    </message>
    <message>
        <source>{path}: permission denied</source>
        <translation>{path}：没有权限</translation>
    </message>
    <message>
        <source>{path}: cannot read ({reason})</source>
        <translation>{path}：无法读取（{reason}）</translation>
    </message>
    <message>
        <source>{path}: not {encoding} text (invalid byte at offset {offset})</source>
        <translation>{path}：不是 {encoding} 文本（偏移 {offset} 处的字节无效）</translation>
    </message>
    <message>
        <source>{path}: ends in the middle of a {encoding} character (offset {offset}): was the file cut off?</source>
        <translation>{path}：在一个 {encoding} 字符的中间结束（偏移 {offset}）：文件是否被截断了？</translation>
    </message>
    <message>
        <source>{path}: not a text file in UTF-8, UTF-16, GB18030 or Big5</source>
        <translation>{path}：不是 UTF-8、UTF-16、GB18030 或 Big5 编码的文本文件</translation>
    </message>
    <message>
        <source>{path}: the file is empty</source>
        <translation>{path}：文件是空的</translation>
    </message>
    <message>
        <source>no input files given</source>
        <translation>没有给出输入文件</translation>
    </message>
    <message>
        <source>{path}: cannot create a temporary file in {folder}</source>
        <translation>{path}：无法在 {folder} 中创建临时文件</translation>
    </message>
    <message>
        <source>{path}: cannot write: folder {folder} does not exist</source>
        <translation>{path}：无法写入：文件夹 {folder} 不存在</translation>
    </message>
    <message>
        <source>{path}: cannot write ({reason})</source>
        <translation>{path}：无法写入（{reason}）</translation>
    </message>
    <message>
        <source>{path}: cannot save as {encoding}: it has no {char}; save as UTF-8</source>
        <translation>{path}：无法保存为 {encoding}：该编码没有“{char}”；请保存为 UTF-8</translation>
    </message>
    <message>
        <source>unknown encoding {encoding}</source>
        <translation>未知编码 {encoding}</translation>
    </message>
    <message>
        <source>unknown Wubi code: {wubi}</source>
        <translation>未知的五笔编码：{wubi}</translation>
    </message>
    <message>
        <source>{wubi}{selector}: code {wubi} has only {count} entries</source>
        <translation>{wubi}{selector}：编码 {wubi} 只有 {count} 个候选</translation>
    </message>
    <message>
        <source>not a Wubi code: {wubi} (1-4 keys a-y)</source>
        <translation>不是五笔编码：{wubi}（应为 1–4 个 a–y 键）</translation>
    </message>
    <message>
        <source>a quote ` without its closing ` at character {position}</source>
        <translation>第 {position} 个字符处的引号 ` 没有对应的结束 `</translation>
    </message>
    <message>
        <source>the separator {separator} could be read as part of a code</source>
        <translation>分隔符 {separator} 可能被读作编码的一部分</translation>
    </message>
    <message>
        <source>unknown code style {style}</source>
        <translation>未知的编码方式 {style}</translation>
    </message>
    <message>
        <source>add at least one corpus file</source>
        <translation>请至少添加一个语料文件</translation>
    </message>
    <message>
        <source>choose at least {count} tokenizers</source>
        <translation>请至少选择 {count} 个分词器</translation>
    </message>
    <message>
        <source>nothing to export yet: run a comparison first</source>
        <translation>还没有可导出的内容：请先运行比较</translation>
    </message>
    <message>
        <source>a worker process died (out of memory or killed); try again</source>
        <translation>一个后台工作进程意外退出（内存不足或被终止），请重试</translation>
    </message>
    <message>
        <source>choose at least one algorithm</source>
        <translation>请至少选择一种算法</translation>
    </message>
    <message>
        <source>{path}: not a folder</source>
        <translation>{path}：不是文件夹</translation>
    </message>
    <message>
        <source>internal error, a bug in wubitok: {error}</source>
        <translation>内部错误，是 wubitok 的缺陷：{error}</translation>
    </message>
    <message>
        <source>Something went wrong inside wubitok; this is a bug. Your text is still there. Details:</source>
        <translation>wubitok 内部出错了，这是一个程序缺陷。你输入的文字仍然保留着。详情：</translation>
    </message>
    <message>
        <source>Unexpected error</source>
        <translation>意外错误</translation>
    </message>
</context>
<context>
    <name>progress</name>
    <message>
        <source>counting</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>merging</source>
        <translation>合并</translation>
    </message>
    <message>
        <source>encoding</source>
        <translation>编码</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>seeding</source>
        <translation>初始化</translation>
    </message>
    <message>
        <source>reading</source>
        <translation>读取</translation>
    </message>
    <message>
        <source>{s} s</source>
        <translation>{s} 秒</translation>
    </message>
    <message>
        <source>{m} min {s:02d} s</source>
        <translation>{m} 分 {s:02d} 秒</translation>
    </message>
    <message>
        <source>{h} h {m:02d} min</source>
        <translation>{h} 小时 {m:02d} 分</translation>
    </message>
    <message>
        <source>{rate}/s</source>
        <translation>{rate}/秒</translation>
    </message>
    <message>
        <source>{time} left</source>
        <translation>剩余 {time}</translation>
    </message>
    <message>
        <source>wubitok (EM and pruning, as sentencepiece)</source>
        <translation>wubitok（EM 与剪枝，同 sentencepiece）</translation>
    </message>
    <message>
        <source>sentencepiece</source>
        <translation>sentencepiece</translation>
    </message>
    <message>
        <source>wubitok (WordPiece score)</source>
        <translation>wubitok（WordPiece 评分）</translation>
    </message>
    <message>
        <source>Hugging Face tokenizers (merges by frequency, not the WordPiece score)</source>
        <translation>Hugging Face tokenizers（按频率合并，不是 WordPiece 评分）</translation>
    </message>
</context>
</TS>
