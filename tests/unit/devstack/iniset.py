# Licensed under the Apache License, Version 2.0 (the "License"); you may
# not use this file except in compliance with the License. You may obtain
# a copy of the License at
#
#      http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
# WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
# License for the specific language governing permissions and limitations
# under the License.

"""``iniset FILE SECTION OPTION VALUE`` the way devstack's iniset edits.

Sets the first active ``OPTION =`` line of the section (comments and
commented defaults are kept), else inserts it right after the section
header, else appends the section to the file.
"""

import os
import re
import sys


def iniset(path, section, option, value):
    lines = []
    if os.path.exists(path):
        with open(path) as f:
            lines = f.read().splitlines()
    setting = '%s = %s' % (option, value)
    header = '[%s]' % section
    option_line = re.compile(r'^\s*%s\s*=' % re.escape(option))
    if header not in (line.strip() for line in lines):
        lines += ['', header, setting]
    else:
        start = [line.strip() for line in lines].index(header) + 1
        end = start
        while end < len(lines) and not lines[end].startswith('['):
            end += 1
        for index in range(start, end):
            if option_line.match(lines[index]):
                lines[index] = setting
                break
        else:
            lines.insert(start, setting)
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    iniset(*sys.argv[1:5])
