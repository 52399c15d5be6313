; Inno Setup script: build dist\wubitok with PyInstaller first, then
;   iscc installer\windows\wubitok.iss
; The result is dist\wubitok-0.1.0-setup.exe (per-user install, no admin rights needed).

#define AppName "wubitok"
#define AppVersion "0.1.0"

[Setup]
AppId={{7E4C2A61-3B1D-4F0E-9C55-5B0D8E6A2F17}
AppName={#AppName}
AppVersion={#AppVersion}
AppPublisher=wubitok developers
DefaultDirName={localappdata}\Programs\{#AppName}
DefaultGroupName={#AppName}
PrivilegesRequired=lowest
OutputDir=..\..\dist
OutputBaseFilename=wubitok-{#AppVersion}-setup
SetupIconFile=..\..\resources\icons\wubitok.ico
Compression=lzma2
SolidCompression=yes
ArchitecturesInstallIn64BitMode=x64compatible
WizardStyle=modern

[Languages]
Name: "en"; MessagesFile: "compiler:Default.isl"
Name: "zh"; MessagesFile: "compiler:Languages\ChineseSimplified.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "..\..\dist\wubitok\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\{#AppName}"; Filename: "{app}\wubitok.exe"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\wubitok.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\wubitok.exe"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
