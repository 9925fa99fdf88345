ping
enable
