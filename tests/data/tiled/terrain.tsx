<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="terrain" tilewidth="32" tileheight="32" tilecount="16" columns="4">
 <image source="terrain.png" width="128" height="128"/>
 <tile id="5">
  <objectgroup draworder="index" id="2">
   <object id="1" x="2" y="2" width="28" height="28"/>
  </objectgroup>
 </tile>
 <tile id="6">
  <properties>
   <property name="terrain" value="forest"/>
  </properties>
 </tile>
 <tile id="7" class="hills"/>
 <wangsets>
  <wangset name="Ground" type="corner" tile="-1">
   <wangcolor name="Plains" color="#ff0000" tile="-1" probability="1"/>
   <wangcolor name="Water" color="#00ff00" tile="-1" probability="1"/>
   <wangtile tileid="0" wangid="0,1,0,1,0,1,0,1"/>
   <wangtile tileid="1" wangid="0,2,0,2,0,2,0,2"/>
   <wangtile tileid="2" wangid="0,1,0,1,0,1,0,2"/>
   <wangtile tileid="3" wangid="0,1,0,1,0,2,0,2"/>
   <wangtile tileid="4" wangid="0,2,0,2,0,2,0,1"/>
  </wangset>
 </wangsets>
</tileset>
