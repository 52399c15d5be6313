<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>CompareChart</name>
    <message numerus="yes">
        <source>%Ln line(s)</source>
        <translation>
            <numerusform>%Ln line</numerusform>
            <numerusform>%Ln lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln character(s)</source>
        <translation>
            <numerusform>%Ln character</numerusform>
            <numerusform>%Ln characters</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ConvertPane</name>
    <message numerus="yes">
        <source>%Ln code(s)</source>
        <translation>
            <numerusform>%Ln code</numerusform>
            <numerusform>%Ln codes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln shared</source>
        <translation>
            <numerusform>%Ln shared</numerusform>
            <numerusform>%Ln shared</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln unknown</source>
        <translation>
            <numerusform>%Ln unknown</numerusform>
            <numerusform>%Ln unknown</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n time(s) in the text; double-click to choose for the next one</source>
        <translation>
            <numerusform>once in the text; double-click to choose for it</numerusform>
            <numerusform>%n times in the text; double-click to choose for the next one</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CorpusPage</name>
    <message numerus="yes">
        <source>Done: %Ln line(s)</source>
        <translation>
            <numerusform>Done: %Ln line</numerusform>
            <numerusform>Done: %Ln lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln character(s)</source>
        <translation>
            <numerusform>%Ln character</numerusform>
            <numerusform>%Ln characters</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LmPanel</name>
    <message numerus="yes">
        <source>Done: %Ln test character(s). Held equal: the model&apos;s shape without embeddings, the training characters per step, the steps and the seeds.</source>
        <translation>
            <numerusform>Done: %Ln test character. Held equal: the model&apos;s shape without embeddings, the training characters per step, the steps and the seeds.</numerusform>
            <numerusform>Done: %Ln test characters. Held equal: the model&apos;s shape without embeddings, the training characters per step, the steps and the seeds.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LookupPane</name>
    <message numerus="yes">
        <source>first %Ln result(s)</source>
        <translation>
            <numerusform>first %Ln result</numerusform>
            <numerusform>first %Ln results</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln result(s)</source>
        <translation>
            <numerusform>%Ln result</numerusform>
            <numerusform>%Ln results</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PracticePane</name>
    <message numerus="yes">
        <source>%n session(s); the last {speed} chars/min</source>
        <translation>
            <numerusform>%n session; the last {speed} chars/min</numerusform>
            <numerusform>%n sessions; the last {speed} chars/min</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TokenizePane</name>
    <message numerus="yes">
        <source>%Ln token(s)</source>
        <translation>
            <numerusform>%Ln token</numerusform>
            <numerusform>%Ln tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln character(s)</source>
        <translation>
            <numerusform>%Ln character</numerusform>
            <numerusform>%Ln characters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>showing the first %Ln character(s)</source>
        <translation>
            <numerusform>showing the first %Ln character</numerusform>
            <numerusform>showing the first %Ln characters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>token(s)</source>
        <translation>
            <numerusform>token</numerusform>
            <numerusform>tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n token</numerusform>
            <numerusform>%n tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %n id(s)</source>
        <translation>
            <numerusform>Copied %n id</numerusform>
            <numerusform>Copied %n ids</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TrainPane</name>
    <message numerus="yes">
        <source>%n file(s), {:.1f} MB</source>
        <translation>
            <numerusform>%n file, {:.1f} MB</numerusform>
            <numerusform>%n files, {:.1f} MB</numerusform>
        </translation>
    </message>
</context>
</TS>
